// numagraph: the command-line face of the library. Subcommands live in
// cmd_*.cpp; errors become one line on stderr and a documented exit code.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "cli_version.hpp"
#include "observe.hpp"
#include "parse_errors.hpp"
#include "registry.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::cli {
std::vector<Command>& commands() {
  static std::vector<Command> list;
  return list;
}

namespace {

// A parse error in the documented one-line form (parse_errors.hpp).
int report_parse_error(const CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  std::fprintf(stderr, "numagraph: error: %s\n", parse_error_message(app, e, argc, argv, "numagraph").c_str());
  return static_cast<int>(numagraph::ExitCode::kUsage);
}

}  // namespace
}  // namespace numagraph::cli

int main(int argc, char** argv) {
  using namespace numagraph;
  CLI::App app{"numagraph: NUMA-aware graph analytics (run `numagraph <command> --help`)"};
  app.set_version_flag("--version", std::string(cli::kVersion));
  app.require_subcommand(1);
  cli::set_command_line(argc, argv);
  auto& list = cli::commands();
  std::sort(list.begin(), list.end(),
            [](const cli::Command& a, const cli::Command& b) { return a.order < b.order; });
  for (auto& c : list) {
    CLI::App* sub = app.add_subcommand(c.name, c.help);
    for (const auto& alias : c.aliases) sub->alias(alias);
    c.setup(*sub);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    return cli::report_parse_error(app, e, argc, argv);
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
