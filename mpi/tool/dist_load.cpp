#include "dist_load.hpp"

#include <functional>
#include <memory>
#include <vector>

#include "agree.hpp"
#include "ghost_targets.hpp"
#include "gz_parts.hpp"
#include "ngr_load.hpp"
#include "text_input.hpp"
#include "exchange.hpp"
#include "numagraph/graph/io_range.hpp"
#include "numagraph/graph/ngr_file.hpp"
#include "numagraph/numa/memory.hpp"
#include "numagraph/util/error.hpp"
#include "numagraph/util/memory_guard.hpp"

namespace numagraph::dist {

std::string DistGraph::user_id(std::int64_t v) const {
  if (ids.named) return labels.names[static_cast<std::size_t>(v)];
  if (ids.relabelled) return std::to_string(labels.ids[static_cast<std::size_t>(v)]);
  return std::to_string(csr.first + v);
}

std::vector<std::string> user_ids_of(const DistGraph& g, const std::vector<std::uint64_t>& dense) {
  const DistCsr& c = g.csr;
  std::vector<std::vector<std::uint64_t>> ask(static_cast<std::size_t>(c.ranks));
  for (std::uint64_t v : dense) ask[c.blocks.owner(v)].push_back(v);
  const Received<std::uint64_t> asked = exchange(ask, c.comm, "the id lookup");
  std::vector<std::string> texts(asked.items.size());
  std::vector<std::vector<std::string_view>> reply(static_cast<std::size_t>(c.ranks));
  for (int r = 0; r < c.ranks; ++r)
    for (std::int64_t k = asked.from[r]; k < asked.from[r + 1]; ++k) {
      texts[k] = g.user_id(static_cast<std::int64_t>(asked.items[k]) - c.first);
      reply[r].push_back(texts[k]);
    }
  const Strings answers = exchange_strings(reply, c.comm);
  std::vector<std::size_t> next(static_cast<std::size_t>(c.ranks));
  for (int r = 0; r < c.ranks; ++r) next[r] = static_cast<std::size_t>(answers.from[r]);
  std::vector<std::string> out;
  out.reserve(dense.size());
  for (std::uint64_t v : dense) out.emplace_back(answers.items[next[c.blocks.owner(v)]++]);
  return out;
}

std::vector<std::uint64_t> dense_of_callers(const DistGraph& g, const std::vector<std::uint64_t>& callers) {
  if (!g.callers.renumbered) return callers;
  const CallerIds& ids = g.callers;
  const auto hi = static_cast<std::uint64_t>(ids.lo) + ids.dense_of.size();
  std::vector<std::uint64_t> mine(callers.size(), 0), found(callers.size(), 0);
  for (std::size_t k = 0; k < callers.size(); ++k)
    if (callers[k] >= static_cast<std::uint64_t>(ids.lo) && callers[k] < hi)
      mine[k] = ids.dense_of[static_cast<std::size_t>(callers[k] - static_cast<std::uint64_t>(ids.lo))];
  if (!callers.empty())
    check(MPI_Allreduce(mine.data(), found.data(), static_cast<int>(callers.size()), MPI_UINT64_T, MPI_MAX,
                        g.csr.comm),
          "MPI_Allreduce(caller ids)");
  return found;
}

// The bytes a rank holds at the peak of the build for `arcs` arcs: the
// memory guard's estimate. At the peak (dist_build.hpp, local_lists.hpp)
// a rank holds its received arcs (16 bytes each) and the 32-bit lists they
// fill; the edge list is given back while the arcs arrive. Blocks balance
// the kernel's arcs plus vertices, not the arcs held, so a rank may hold
// more than its share: 15% more is allowed for (Kronecker scale 22 at 4
// ranks: the largest rank holds 1.1x the mean).
static std::uint64_t build_peak_bytes(std::int64_t arcs) {
  return static_cast<std::uint64_t>(arcs) * (16 + 4) * 115 / 100 + (std::uint64_t{1} << 24);
}

void check_rank_memory(const std::string& name, std::int64_t edges, bool undirected, bool directed_in, int ranks,
                       MPI_Comm c) {
  const std::int64_t arcs = edges * (undirected ? 2 : 1) + (directed_in ? edges : 0);
  const std::uint64_t per_rank = build_peak_bytes((arcs + ranks - 1) / ranks);
  const std::uint64_t limit = memory_limit_bytes();
  agree(c, [&] {
    if (limit == 0 || per_rank <= limit) return;
    const std::uint64_t fit = (build_peak_bytes(arcs) + limit - 1) / limit;
    throw ResourceError(name + ": " + std::to_string(edges) + " edges need about " +
                        std::to_string(per_rank >> 20) + " MiB per rank at " + std::to_string(ranks) +
                        (ranks == 1 ? " rank" : " ranks") + " to build, more than the " + std::to_string(limit >> 20) +
                        " MiB each rank may use (NUMAGRAPH_MEMORY_LIMIT or MemAvailable): run with at least " +
                        std::to_string(fit) + " ranks, or on nodes with more memory");
  });
}

namespace {

// Runs a reader step on `source` (the user's file, or the in-memory copy of
// an inflated .gz) and says the user's file name in any error it raises.
void on_source(MPI_Comm c, const std::string& source, const std::string& user, const std::function<void()>& step) {
  agree(c, [&] {
    if (source == user) return step();
    auto named = [&](std::string text) {
      for (std::size_t at = text.find(source); at != std::string::npos; at = text.find(source, at + user.size()))
        text.replace(at, source.size(), user);
      return text;
    };
    try {
      step();
    } catch (const InputError& e) {
      const std::string prefix = e.file() + (e.line() > 0 ? ":" + std::to_string(e.line()) : "") + ": ";
      const std::string what = e.what();
      throw InputError(user, e.line(), named(what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what));
    } catch (const UsageError& e) {
      throw UsageError(named(e.what()));
    } catch (const IoError& e) {
      throw IoError(named(e.what()));
    }
  });
}

}  // namespace

namespace {

DistGraph load_lists(const LoadRequest& rq, MPI_Comm c) {
  int me = 0, p = 1;
  MPI_Comm_rank(c, &me);
  MPI_Comm_size(c, &p);
  DistGraph g;
  g.name = rq.path;
  const double t0 = MPI_Wtime();

  // A .ngr: each rank reads the slices of its own block (ngr_load.hpp).
  int ngr = me == 0 && io::is_ngr_input(rq.path, rq.read.format);
  check(MPI_Bcast(&ngr, 1, MPI_INT, 0, c), "MPI_Bcast");
  if (ngr) return load_ngr_distributed(rq, c);

  // 0. A gzip-compressed file: rank 0 inflates it and deals out the parts (gz_parts.hpp).
  int gz = me == 0 && io::has_gzip_magic(rq.path);
  check(MPI_Bcast(&gz, 1, MPI_INT, 0, c), "MPI_Bcast");
  Format format = Format::kAuto;
  ReadOptions read = rq.read;
  std::unique_ptr<InflatedParts> inflated;
  if (gz) {
    agree(c, [&] {
      format = read.format != Format::kAuto ? read.format : format_from_extension(rq.path);
      if (format == Format::kAuto)
        throw UsageError("cannot tell the format of the compressed file " + rq.path +
                         " from its name: give it with --format (" + kInputFormatNames + ")");
    });
    read.format = format;
    inflated = std::make_unique<InflatedParts>(rq.path, c);
    g.times.inflate = inflated->inflate_seconds();
  }
  const std::string source = inflated ? inflated->path() : rq.path;

  // 1. My byte range, the global number of its first line and (METIS files,
  // whose data line k is vertex k) the data lines of the ranks before me.
  io::PartSpan span;
  on_source(c, source, rq.path, [&] {
    format = io::part_format(source, read);  // read_part records a format guessed from the content
    span = io::part_span(source, {me, p}, format);
  });
  std::int64_t mine[2] = {span.newlines, span.data_lines}, before[2] = {0, 0};
  check(MPI_Exscan(mine, before, 2, MPI_INT64_T, MPI_SUM, c), "MPI_Exscan(lines)");
  if (me == 0) before[0] = before[1] = 0;
  const std::int64_t first_line = before[0] + 1;
  span.data_lines_before = before[1];
  const std::int64_t total_lines = sum_all(span.newlines, c);
  g.times.bytes = static_cast<std::int64_t>(span.end - span.begin);

  // 2. Facts only the whole file settles, combined in rank order.
  io::PartFacts facts;
  io::PartParse parsed;  // what part_facts parsed, so that read_part does not parse again
  on_source(c, source, rq.path, [&] { facts = io::part_facts(source, format, span, first_line, read, &parsed); });
  std::vector<io::PartFacts> all(static_cast<std::size_t>(p));
  check(MPI_Allgather(&facts, sizeof facts, MPI_BYTE, all.data(), sizeof facts, MPI_BYTE, c), "MPI_Allgather(facts)");
  io::PartFacts whole = all[0];
  for (int r = 1; r < p; ++r) io::combine(whole, all[r]);
  all = {};
  on_source(c, source, rq.path, [&] { io::check_whole_file(source, format, whole, total_lines); });

  // 3. My edges.
  io::PartEdges part;
  on_source(c, source, rq.path, [&] { part = io::read_part(source, format, span, first_line, whole, read, &parsed); });
  parsed = {};        // the part is parsed: its mapping of the file goes,
  inflated.reset();  // and so does the in-memory copy of a .gz,
  numa::release_recycled();  // and no parse buffer waits in the recycle bin
  g.times.read = MPI_Wtime() - t0;
  EdgeList& e = part.edges;
  e.source_name = rq.path;
  g.report.decisions = std::move(e.decisions);
  if (rq.symmetrize && find_decision(g.report.decisions, "directed"))
    set_decision(g.report.decisions, "directed", "false");
  const bool undirected = e.undirected || rq.symmetrize;
  agree(c, [&] {
    if (rq.directed && undirected && !rq.symmetrize)
      throw UsageError(rq.path + " declares its edges undirected (a symmetric Matrix Market file), so --directed "
                                 "cannot apply: drop it");
  });
  if (rq.directed && find_decision(g.report.decisions, "directed")) set_decision(g.report.decisions, "directed", "true");
  g.input_edges = sum_all(static_cast<std::int64_t>(e.size()), c);
  g.report.input_edges = g.input_edges;
  check_rank_memory(rq.path, g.input_edges, undirected, !undirected, p, c);

  // 4. Dense ids.
  double t = MPI_Wtime();
  // The "ids" decision is the same on every rank (a part may hold no names at all).
  const InputDecision* ids = find_decision(g.report.decisions, "ids");
  const bool named = ids && ids->value == "names";
  agree(c, [&] {
    g.ids = named ? settle_names(e, part.names, c) : settle_integer_ids(e, rq.relabel, c, g.report);
  });
  if (named) set_decision(g.report.decisions, "relabel", "off");  // names are dense ids already, as build_graph says
  g.times.ids = MPI_Wtime() - t;

  // 5. Blocks, lists, ghosts.
  BuildCounts counts;
  agree(c, [&] {
    g.csr = build_dist_csr(e, g.ids.n, undirected, !rq.keep_self_loops, !rq.keep_duplicates, rq.work, c, counts);
  });
  g.report.self_loops_removed = counts.self_loops_removed;
  g.report.duplicates_removed = counts.duplicates_removed;
  g.self_loops_kept = counts.self_loops_kept;
  g.times.partition = counts.cut_s;
  g.times.shuffle = counts.shuffle_s;
  g.times.lists = counts.lists_s;
  t = MPI_Wtime();
  g.labels = block_labels(g.ids, g.csr.blocks, c);
  g.times.labels = MPI_Wtime() - t;
  g.times.total = MPI_Wtime() - t0;
  return g;
}

}  // namespace

DistGraph load_distributed(const LoadRequest& rq, MPI_Comm c) {
  DistGraph g = load_lists(rq, c);
  if (rq.work == ArcWork::kIn) {  // a pull kernel: its tiled copy reads the in-arcs by column
    const double t = MPI_Wtime();
    add_ghost_targets(g.csr);
    const double s = MPI_Wtime() - t;
    g.times.lists += s;
    g.times.total += s;
  }
  return g;
}

}  // namespace numagraph::dist
