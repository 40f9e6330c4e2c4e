// numagraph: the command-line face of the library. Subcommands live in
// cmd_*.cpp; errors become one line on stderr and a documented exit code.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <new>

#include "cli_version.hpp"
#include "registry.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::cli {
std::vector<Command>& commands() {
  static std::vector<Command> list;
  return list;
}
}  // namespace numagraph::cli

int main(int argc, char** argv) {
  using namespace numagraph;
  CLI::App app{"numagraph: NUMA-aware graph analytics (run `numagraph <command> --help`)"};
  app.set_version_flag("--version", std::string(cli::kVersion));
  app.require_subcommand(1);
  auto& list = cli::commands();
  std::sort(list.begin(), list.end(),
            [](const cli::Command& a, const cli::Command& b) { return a.order < b.order; });
  for (auto& c : list) c.setup(*app.add_subcommand(c.name, c.help));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : static_cast<int>(ExitCode::kUsage);
  } catch (const Error& e) {
    std::fprintf(stderr, "numagraph: error: %s\n", e.what());
    return static_cast<int>(e.exit_code());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "numagraph: error: out of memory (use a smaller graph or a machine with more "
                 "memory)\n");
    return static_cast<int>(ExitCode::kResource);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "numagraph: internal error: %s (please report this)\n", e.what());
    return static_cast<int>(ExitCode::kInternal);
  }
  return 0;
}
