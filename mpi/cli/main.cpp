// numagraph-mpi: BFS, SSSP, connected components and PageRank on the user's
// own graph file over MPI (launched by mpirun, mpiexec or srun), with the
// flags, output files, --json keys and exit codes of `numagraph`.
//
// Every rank parses the command line; errors are agreed (agree.hpp) so the
// job prints one message and every rank exits with the same code.
#include <CLI/CLI.hpp>
#include <mpi.h>

#include <cstdio>
#include <memory>

#include "agree.hpp"
#include "commands.hpp"
#include "numagraph/util/error.hpp"
#include "parse_errors.hpp"

namespace {

int run(int argc, char** argv, MPI_Comm comm, int rank) {
  using namespace numagraph;
  using namespace numagraph::dist;
  CLI::App app{"numagraph-mpi: graph analytics on your own graph file over MPI (run `numagraph-mpi <command> --help`)"};
  app.require_subcommand(1);
  std::function<void(MPI_Comm)> chosen;
  std::vector<std::pair<CLI::App*, std::function<void(MPI_Comm)>>> runners;
  for (const auto& c : {dist::cli::info_command(), dist::cli::bfs_command(), dist::cli::sssp_command(), dist::cli::cc_command(),
                        dist::cli::pr_command()}) {
    CLI::App* sub = app.add_subcommand(c.name, c.help);
    runners.emplace_back(sub, c.setup(*sub));
  }
  int code = 0;
  std::string message;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      if (rank == 0) app.exit(e);
      return 0;
    }
    code = static_cast<int>(ExitCode::kUsage);
    message = numagraph::cli::parse_error_message(app, e, argc, argv, kToolName);
  }
  // Every rank parsed its own command line: they must agree (one message).
  try {
    agree(comm, [&] {
      if (code != 0) throw UsageError(message);
    });
    for (const auto& [sub, fn] : runners)
      if (sub->parsed()) fn(comm);
  } catch (const JobFailed& f) {
    return f.exit_code;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int code = 0;
  try {
    code = run(argc, argv, comm, rank);
  } catch (const std::exception& e) {
    // An error outside an agreed step: the other ranks may be inside a
    // collective, so the job ends here.
    std::fprintf(stderr, "%s: error: rank %d: %s\n", numagraph::dist::kToolName, rank, e.what());
    std::fflush(stderr);
    const auto* err = dynamic_cast<const numagraph::Error*>(&e);
    MPI_Abort(comm, err ? static_cast<int>(err->exit_code()) : static_cast<int>(numagraph::ExitCode::kInternal));
  }
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return code;
}
