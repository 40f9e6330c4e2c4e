// Connected components of a DistCsr: weak components of a directed graph
// (out- and in-arcs both link), components of an undirected one. Every
// vertex is labelled with the smallest global dense id in its component, so
// the answer is the same whatever the ranks and threads.
//
// Method: local union-find, then the ranks' local components are tied
// together in one of two ways: gathered as a contracted graph on every rank
// when it is small (components_gathered.hpp: one exchange and one
// allgather; on Kronecker scale 20 at 2 ranks, about 2 K ghost keys make a
// graph of 491 edges), else by min-label propagation between
// them, sped up by hooking and pointer jumping on the labels (step 2 below).
//   1. Each rank links its own vertices and its ghosts along every arc it
//      holds that can join anything new (Afforest-style sampled linking with
//      compare-and-swap, OpenMP threads; components.cpp says which arcs it
//      skips), and labels each local component with the smallest global id
//      among its members, ghosts included. Whole local components, however
//      long their paths inside the rank, are settled in this one pass.
//   2. Rounds, ONE exchange() each: a vertex held by several ranks (its owner
//      and the ranks that keep it as a ghost) ties their local components
//      together. For every such copy whose component label dropped below what
//      the other side last heard, the new label goes ghost -> owner and
//      owner -> each rank mirroring it; the receiver lowers the label of the
//      local component holding the copy, relabelling all of it at once.
//      A label is itself a vertex of the component, so two shortcuts ride on
//      the same exchange (FastSV's hooking and shortcutting, Zhang, Azad, Hu
//      2020, on labels instead of parent pointers): a component whose label
//      drops from l to l' tells l's owner (hook: l's component may take l'),
//      and a component that takes a label l owned elsewhere asks l's owner
//      for l's current label (answered the next round). Both are skipped when
//      l is a ghost in the same local component, whose owner hears anyway.
//   The job ends after a round in which no rank has news (a changed copy, a
//   hook, an answer that lowers a label): then every copy of every shared
//   vertex has the same label, so each component has one label, its
//   smallest member.
// Why: rounds grow with the rank-crossing hops between a vertex and its
// component's smallest member, never with the diameter inside a rank, and a
// round moves only labels that changed. Plain label propagation needs one
// exchange per hop (about 700 on the road graph USA-road-d.NY); FastSV
// proper moves a parent read per vertex per round. Measured (round counts at
// 2 / 3 / 4 ranks): USA-road-d.NY 4 / 5 / 5; the same graph with its ids
// shuffled (so that the blocks cut it everywhere, the hard case here) 6 / 9 / 12,
// against 21 / - / 101 without the hooks and questions; social graphs and
// Kronecker 1-3.
#pragma once

#include <cstdint>
#include <vector>

#include "dist_csr.hpp"
#include "step_times.hpp"

namespace numagraph::dist {

struct DistCcResult {
  std::vector<std::uint64_t> labels;  // per own vertex: its component's smallest global dense id
  const char* method = "rounds";      // "gathered" (components_gathered.hpp) or "rounds" (step 2 above)
  std::int64_t contracted_edges = -1;  // the contracted graph's edges, all ranks; -1 when not built (limit 0)
  int rounds = 0;                      // exchanges that moved labels between ranks
  std::int64_t label_messages = 0;     // messages this rank sent: ghost keys, then rounds (16 bytes each)
};

// Collective over g.comm. After step 1, the ties between local components
// are gathered on every rank when there are at most `gather_limit` of them
// (components_gathered.hpp; default_gather_limit(g) is the default), else
// step 2's rounds run; 0 always runs the rounds.
DistCcResult connected_components(const DistCsr& g, std::int64_t gather_limit, StepTimes& times);

// What `numagraph cc --json` reports about the partition, the same on
// every rank: the number of components, the size of the largest and its
// label (the smallest label among equally large ones, as the shared CLI
// picks it). Collective over g.comm.
struct ComponentSummary {
  std::int64_t num_components = 0;
  std::int64_t largest_component = 0;
  std::uint64_t largest_label = 0;
};
ComponentSummary summarize_components(const DistCsr& g, const std::vector<std::uint64_t>& labels);

}  // namespace numagraph::dist
