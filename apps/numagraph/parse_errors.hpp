// Command-line mistakes in one line, for numagraph and numagraph-mpi: an
// unknown command, flag or value gets the closest known one ("did you
// mean"), a long flag written with one dash is named, and the message ends
// with the command whose --help lists the flags.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace numagraph::cli {

// The message (without the "tool: error: " prefix) for a parse error of
// `app` run as `tool`.
std::string parse_error_message(const CLI::App& app, const CLI::ParseError& e, int argc, char** argv,
                                const std::string& tool);

}  // namespace numagraph::cli
