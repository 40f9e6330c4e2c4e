// Vertex ids of a user's file across ranks: the file's ids (integers, or
// names) become dense ids 0..n-1 by the rules the shared-memory builder
// applies (build_graph: sparse or 1-based integer ids are relabelled to
// their rank among the distinct ids; names are numbered in order of first
// appearance in the file), computed without any rank holding all ids:
//
//  - integer ids kept as they are: n = max id + 1; the distinct ids are
//    counted with a bitwise-or reduce-scatter of per-rank bitmaps (only when
//    n is at most 8 x the edges; larger is sparse by the rule, ids <= 2m);
//  - integer ids relabelled, dense enough for a bitmap of all ids (at most
//    about a byte per edge): an or-allreduce of the bitmaps, and an id's dense
//    id is its rank among the set bits;
//  - integer ids relabelled, sparse: a sample sort sends every rank's distinct ids to
//    the rank owning their value range; a range owner's dense ids are an
//    offset (exclusive scan of the counts) plus the position in its run;
//  - names: every name goes to the rank hash(name) % P, which finds the
//    (rank, position) where the name first appears; the ranks then number
//    their first appearances in (rank, position) order with one scan, and
//    the other appearances ask the first one's rank.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "dist_csr.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/types.hpp"

namespace numagraph::dist {

// What a rank keeps to translate between user ids and dense ids.
struct IdMap {
  bool named = false;
  bool relabelled = false;
  std::int64_t n = 0;
  // Relabelled integer ids, by one of two methods. Bitmap (ids up to a few
  // times the edges): every rank holds the bitmap of all ids and the set bits
  // before each word; an id's dense id is a word's count plus a popcount.
  std::vector<std::uint64_t> bits, bits_before;
  // Sample sort (sparse ids): this rank's distinct ids (sorted) and their dense ids.
  std::vector<std::uint64_t> local_ids, local_dense;
  // Names: this rank's names and their dense ids.
  std::unordered_map<std::string, std::uint64_t> name_dense;
  // Range owner's run (relabelled integers): dense ids [run_base, run_base +
  // run_ids.size()) are the ids run_ids; names: the names this rank saw first
  // and their dense ids. block_labels() deals them out to the block owners.
  std::vector<std::uint64_t> run_ids;
  std::int64_t run_base = 0;
  std::vector<std::string> first_names;
  std::vector<std::uint64_t> first_dense;

  // Integer ids: the dense id of user id v as far as this rank knows
  // (relabelled by sample sort: only ids of its own edges), or -1.
  std::int64_t known_dense(std::uint64_t v) const;
};

struct IdFacts {
  std::uint64_t max_id = 0;
  std::uint64_t min_id = 0;
  std::int64_t edges = 0;  // over all ranks
};

// Integer ids: decides relabelling as build_graph does (recording the
// "relabel" decision and notice in `report`), rewrites e.src/e.dst to dense
// ids. Collective.
IdMap settle_integer_ids(EdgeList& e, Relabel mode, MPI_Comm comm, BuildReport& report);

// Names: e's ids index `names` (this rank's names in order of first
// appearance in its part); rewrites them to dense ids. Collective.
IdMap settle_names(EdgeList& e, const std::vector<std::string>& names, MPI_Comm comm);

// The user's labels of my block's vertices (dense ids [first, first + count)):
// integer ids, or names when map.named. Collective.
struct BlockLabels {
  std::vector<std::uint64_t> ids;   // empty for names and for ids kept as they are
  std::vector<std::string> names;
};
BlockLabels block_labels(const IdMap& map, const VertexBlocks& blocks, MPI_Comm comm);

// The dense id of a user id or name, or -1 when it is not a vertex. Collective.
std::int64_t dense_id_of(const IdMap& map, const std::string& text, MPI_Comm comm);

}  // namespace numagraph::dist
