// numagraph plot {profile,spy} and numagraph experiments: the tools written
// in Python, run through the numagraph Python package so that every tool a
// user sees is a numagraph command. The process is replaced by the Python
// interpreter ($NUMAGRAPH_PYTHON, else python3 on PATH; a wheel's numagraph
// launcher sets it to its own interpreter), so the tool's exit code and
// output are the command's.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common.hpp"
#include "registry.hpp"

namespace numagraph::cli {
namespace {

// Imports the tool's module and runs its main() with the user's arguments;
// a missing package or matplotlib becomes one numagraph-style error that
// says what to install (exit 6, a missing resource).
constexpr const char* kRunModule = R"PY(
import importlib, sys
command, module = sys.argv[1], sys.argv[2]
try:
    tool = importlib.import_module(module)
except ImportError as e:
    sys.stderr.write(f"numagraph: error: `{command}` needs the numagraph Python package "
                     f"({e}); install it with `pip install 'numagraph[plot]'`, or set "
                     f"NUMAGRAPH_PYTHON to a Python that has it\n")
    sys.exit(6)
sys.exit(tool.main(sys.argv[3:], prog=command))
)PY";

std::string python_interpreter() {
  const char* chosen = std::getenv("NUMAGRAPH_PYTHON");
  return chosen != nullptr && *chosen != '\0' ? chosen : "python3";
}

[[noreturn]] void run_python_tool(const std::string& command, const std::string& module,
                                  const std::vector<std::string>& args) {
  const std::string python = python_interpreter();
  std::vector<std::string> argv_strings = {python, "-c", kRunModule, command, module};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  ::execvp(python.c_str(), argv.data());
  throw ResourceError("`" + command + "` runs Python, but " + python + " cannot be started (" +
                      std::strerror(errno) +
                      "); install Python 3 with the numagraph package, or set NUMAGRAPH_PYTHON");
}

// A subcommand that hands everything after its name to a Python tool,
// --help included (the tool's own help lists its flags).
void add_python_tool(CLI::App& parent, const std::string& name, const std::string& help,
                     const std::string& command, const std::string& module) {
  CLI::App* sub = parent.add_subcommand(name, help);
  sub->set_help_flag();
  sub->allow_extras();
  sub->prefix_command();
  sub->callback([sub, command, module] { run_python_tool(command, module, sub->remaining()); });
}

const Register kPlot{
    {"plot", "plots (Python, matplotlib): `plot profile RUN.json` (a --profile file over time), `plot spy GRAPH`", 920,
     [](CLI::App& app) {
       app.require_subcommand(1);
       add_python_tool(app, "profile",
                       "counters and phases of --profile files over time, and their CDFs (PNG)",
                       "numagraph plot profile", "numagraph.plot_profile");
       add_python_tool(app, "spy", "the adjacency matrix of a graph as an image (PNG)",
                       "numagraph plot spy", "numagraph.plot");
     }}};

const Register kExperiments{
    {"experiments", "rerun the papers' experiments (`experiments list`, `experiments run NAME`)", 930,
     [](CLI::App& app) {
       app.set_help_flag();
       app.allow_extras();
       app.prefix_command();
       app.callback([&app] {
         run_python_tool("numagraph experiments", "numagraph.experiments.cli", app.remaining());
       });
     }}};

}  // namespace
}  // namespace numagraph::cli
