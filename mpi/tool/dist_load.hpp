// Loading a user's graph file over MPI: every rank parses its byte range of
// the file with the shared-memory readers (numagraph/graph/io_range.hpp),
// the ids become dense (dist_ids.hpp) and the graph is cut into blocks
// (dist_build.hpp). Same decisions, notes and graph as `numagraph`'s loader.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "dist_build.hpp"
#include "dist_csr.hpp"
#include "dist_ids.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/io.hpp"

namespace numagraph::dist {

struct LoadRequest {
  std::string path;
  ReadOptions read;
  bool symmetrize = false;
  bool directed = false;  // --directed: settles the direction note
  bool keep_self_loops = false;
  bool keep_duplicates = false;
  Relabel relabel = Relabel::kAuto;
  ArcWork work = ArcWork::kBoth;  // what the block cut balances: the arcs the kernel walks
};

// Per-rank seconds of each loading step, and the bytes of the file it parsed.
struct LoadTimes {
  double inflate = 0;    // a .gz: rank 0 inflating it and dealing out the parts (included in read)
  double read = 0;       // span, facts and parse of my byte range
  double ids = 0;        // dense ids (and names)
  double partition = 0;  // block cut
  double shuffle = 0;    // arcs to their owners
  double lists = 0;      // sorted, cleaned lists, ghosts, mirrors
  double labels = 0;     // my block's user ids or names
  double total = 0;
  std::int64_t bytes = 0;
};

// A renumbered .ngr (numagraph reorder) answers in the ids of the graph it
// was made from, its "caller ids", as `numagraph` does: random roots are
// drawn among those ids. Each rank knows the dense (stored) ids of the caller
// ids [lo, lo + dense_of.size()); for any other graph caller ids are dense ids.
struct CallerIds {
  bool renumbered = false;
  std::int64_t lo = 0;
  std::vector<std::uint64_t> dense_of;
};

struct DistGraph {
  DistCsr csr;
  IdMap ids;
  BlockLabels labels;
  CallerIds callers;
  BuildReport report;     // decisions and notice, as build_graph records them
  std::string name;       // the file, for messages
  std::int64_t input_edges = 0;
  std::int64_t self_loops_kept = 0;  // over all ranks (--keep-self-loops)
  LoadTimes times;

  bool named() const { return ids.named; }
  // The user's id of my vertex v (local index < csr.local_n), as text.
  std::string user_id(std::int64_t v) const;
};

// The user's ids (or names) of any global dense ids, each answered by the
// vertex's owner. Collective.
std::vector<std::string> user_ids_of(const DistGraph& g, const std::vector<std::uint64_t>& dense);

// The dense ids of caller ids (each below n). Collective.
std::vector<std::uint64_t> dense_of_callers(const DistGraph& g, const std::vector<std::uint64_t>& callers);

// The memory guard per rank: refuses (ResourceError, agreed) a build of
// `edges` edges that would not fit each rank's share of memory, naming the
// rank count that would. Collective.
void check_rank_memory(const std::string& name, std::int64_t edges, bool undirected, bool directed_in, int ranks,
                       MPI_Comm comm);

// Collective. Errors end the job through agree() (one message, one code).
DistGraph load_distributed(const LoadRequest& request, MPI_Comm comm);

}  // namespace numagraph::dist
