#include "agree.hpp"

#include <climits>
#include <cstdio>
#include <new>

#include "numagraph/util/error.hpp"

namespace numagraph::dist {

void agree(MPI_Comm comm, const std::function<void()>& step) {
  long order = LONG_MAX;  // LONG_MAX: no error on this rank
  int code = 0;
  std::string message;
  try {
    step();
  } catch (const InputError& e) {
    order = e.line() > 0 ? e.line() : LONG_MAX - 1;
    code = static_cast<int>(e.exit_code());
    message = e.what();
  } catch (const Error& e) {
    order = LONG_MAX - 1;
    code = static_cast<int>(e.exit_code());
    message = e.what();
  } catch (const std::bad_alloc&) {
    // Out of memory strikes one rank in the middle of a collective step,
    // where the others cannot join an agreement: end the whole job now.
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    std::fprintf(stderr, "%s: error: rank %d ran out of memory (run with more ranks, or on nodes with more memory)\n",
                 kToolName, rank);
    std::fflush(stderr);
    MPI_Abort(comm, static_cast<int>(ExitCode::kResource));
  }
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  struct {
    long order;
    int rank;
  } mine{order, rank}, first{};
  MPI_Allreduce(&mine, &first, 1, MPI_LONG_INT, MPI_MINLOC, comm);
  if (first.order == LONG_MAX) return;
  if (first.rank == rank) {
    std::fprintf(stderr, "%s: error: %s\n", kToolName, message.c_str());
    std::fflush(stderr);
  }
  MPI_Bcast(&code, 1, MPI_INT, first.rank, comm);
  throw JobFailed{code};
}

void note_once(MPI_Comm comm, const std::string& text) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) std::fprintf(stderr, "%s: note: %s\n", kToolName, text.c_str());
}

}  // namespace numagraph::dist
