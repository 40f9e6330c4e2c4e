// Subcommand registry: each cmd_*.cpp registers itself with a static
// Register object, so adding a kernel to the CLI touches no shared file.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace numagraph::cli {

struct Command {
  std::string name;
  std::string help;
  int order;                               // position in --help (smaller first)
  std::function<void(CLI::App&)> setup;    // adds options and sets the callback
  std::vector<std::string> aliases = {};   // other names, e.g. the Python function's
};

std::vector<Command>& commands();

struct Register {
  explicit Register(Command command) { commands().push_back(std::move(command)); }
};

}  // namespace numagraph::cli
