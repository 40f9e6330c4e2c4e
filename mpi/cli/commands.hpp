// The numagraph-mpi commands, one file each (cmd_*.cpp); main.cpp lists them.
#pragma once

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

namespace numagraph::dist::cli {

struct Command {
  std::string name;
  std::string help;
  // Adds the command's flags to `app` and returns what runs it (collective).
  std::function<std::function<void(MPI_Comm)>(CLI::App& app)> setup;
};

Command info_command();
Command bfs_command();
Command sssp_command();
Command cc_command();
Command pr_command();

}  // namespace numagraph::dist::cli
