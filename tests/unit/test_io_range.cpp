// Reading a file in parts (io_range.hpp) gives what read_edge_list gives for
// the whole file: for K = 1..5 parts, the three passes run in a loop (as
// numagraph-mpi runs them over ranks) and the parts' edges, concatenated,
// must equal the whole file's: ids, weights, kinds, vertex counts, direction,
// decisions and names by first appearance; errors must be the same exception
// with the same global line.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "io_test_util.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/graph/io_range.hpp"

using namespace numagraph;
using namespace numagraph::io;
using namespace numagraph::testing_io;

namespace {

struct PartsRun {
  std::vector<PartSpan> spans;
  std::vector<std::int64_t> first_lines;
  EdgeList edges;
};

// The three passes over K parts. `keep`: hand part_facts' parse to
// read_part; `tree`: combine the facts in two groups, then the groups.
PartsRun read_in_parts(const std::string& path, int parts, const ReadOptions& options, bool keep, bool tree) {
  PartsRun run;
  const Format format = part_format(path, options);
  std::int64_t line = 1, total_newlines = 0;
  for (int k = 0; k < parts; ++k) {
    run.spans.push_back(part_span(path, {k, parts}));
    run.first_lines.push_back(line);
    line += run.spans.back().newlines;
    total_newlines += run.spans.back().newlines;
  }
  EXPECT_EQ(run.spans.front().begin, 0u);
  EXPECT_EQ(run.spans.back().end, std::filesystem::file_size(path));
  for (int k = 1; k < parts; ++k) EXPECT_EQ(run.spans[k].begin, run.spans[k - 1].end);

  std::vector<PartParse> parses(static_cast<std::size_t>(parts));
  std::vector<PartFacts> facts;
  for (int k = 0; k < parts; ++k)
    facts.push_back(part_facts(path, format, run.spans[k], run.first_lines[k], options, keep ? &parses[k] : nullptr));
  PartFacts whole;  // the identity of combine
  if (tree && parts > 2) {
    PartFacts low = facts[0], high = facts[parts / 2];
    for (int k = 1; k < parts / 2; ++k) combine(low, facts[k]);
    for (int k = parts / 2 + 1; k < parts; ++k) combine(high, facts[k]);
    combine(whole, low);
    combine(whole, high);
  } else {
    for (const auto& f : facts) combine(whole, f);
  }
  check_whole_file(path, format, whole, total_newlines);

  // Every part reads; the error with the smallest line is the file's.
  std::vector<PartEdges> read;
  std::optional<InputError> error;
  for (int k = 0; k < parts; ++k) {
    try {
      read.push_back(read_part(path, format, run.spans[k], run.first_lines[k], whole, options,
                               keep ? &parses[k] : nullptr));
    } catch (const InputError& e) {
      if (!error || e.line() < error->line()) error = e;
    }
  }
  if (error) throw *error;

  // Concatenate; number names by first appearance over the parts in order.
  EdgeList& e = run.edges;
  std::size_t m = 0;
  for (const auto& p : read) m += p.edges.size();
  e.src = NumaArray<std::uint64_t>(m);
  e.dst = NumaArray<std::uint64_t>(m);
  const bool weighted = read.front().edges.weighted();
  if (weighted) e.weights = NumaArray<weight_t>(m);
  auto names = std::make_shared<std::vector<std::string>>();
  std::unordered_map<std::string, std::uint64_t> number;
  bool named = false;
  std::size_t at = 0;
  for (const auto& p : read) {
    const EdgeList& x = p.edges;
    EXPECT_EQ(x.decisions.size(), read.front().edges.decisions.size()) << "every part records the same decisions";
    for (std::size_t d = 0; d < std::min(x.decisions.size(), read.front().edges.decisions.size()); ++d) {
      EXPECT_EQ(x.decisions[d].key, read.front().edges.decisions[d].key);
      EXPECT_EQ(x.decisions[d].note, read.front().edges.decisions[d].note);
    }
    EXPECT_EQ(x.weight_kind, read.front().edges.weight_kind);
    named = named || !p.names.empty();
    std::vector<std::uint64_t> global(p.names.size());
    for (std::size_t i = 0; i < p.names.size(); ++i) {
      auto [it, fresh] = number.try_emplace(p.names[i], names->size());
      if (fresh) names->push_back(p.names[i]);
      global[i] = it->second;
    }
    for (std::size_t i = 0; i < x.size(); ++i, ++at) {
      e.src[at] = p.names.empty() ? x.src[i] : global[x.src[i]];
      e.dst[at] = p.names.empty() ? x.dst[i] : global[x.dst[i]];
      if (weighted) e.weights[at] = x.weights[i];
    }
  }
  const EdgeList& one = read.front().edges;
  e.weight_kind = one.weight_kind;
  e.num_vertices = one.num_vertices;
  e.undirected = one.undirected;
  e.header = one.header;
  e.header_detected = one.header_detected;
  e.decisions = one.decisions;
  e.source_name = one.source_name;
  if (named) {
    e.num_vertices = names->size();
    e.names = names;
  }
  return run;
}

void expect_same(const EdgeList& whole, const EdgeList& parts, const std::string& what) {
  ASSERT_EQ(whole.size(), parts.size()) << what;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    ASSERT_EQ(whole.src[i], parts.src[i]) << what << " edge " << i;
    ASSERT_EQ(whole.dst[i], parts.dst[i]) << what << " edge " << i;
  }
  ASSERT_EQ(whole.weights.size(), parts.weights.size()) << what;
  for (std::size_t i = 0; i < whole.weights.size(); ++i) ASSERT_EQ(whole.weights[i], parts.weights[i]) << what;
  EXPECT_EQ(whole.weight_kind, parts.weight_kind) << what;
  EXPECT_EQ(whole.num_vertices, parts.num_vertices) << what;
  EXPECT_EQ(whole.undirected, parts.undirected) << what;
  EXPECT_EQ(whole.header, parts.header) << what;
  EXPECT_EQ(whole.header_detected, parts.header_detected) << what;
  EXPECT_EQ(whole.source_name, parts.source_name) << what;
  ASSERT_EQ(whole.decisions.size(), parts.decisions.size()) << what;
  for (std::size_t d = 0; d < whole.decisions.size(); ++d) {
    EXPECT_EQ(whole.decisions[d].key, parts.decisions[d].key) << what;
    EXPECT_EQ(whole.decisions[d].value, parts.decisions[d].value) << what;
    EXPECT_EQ(whole.decisions[d].note, parts.decisions[d].note) << what;
  }
  ASSERT_EQ(whole.names == nullptr, parts.names == nullptr) << what;
  if (whole.names) {
    EXPECT_EQ(*whole.names, *parts.names) << what;
  }
}

// What a read gives: edges, or the exception's kind, message and line.
struct Outcome {
  std::optional<EdgeList> edges;
  std::string error;  // "input: file:line: message", "usage: ...", "io: ..."
  std::int64_t line = 0;
};

template <typename F>
Outcome outcome_of(F&& read) {
  Outcome o;
  try {
    o.edges = read();
  } catch (const InputError& e) {
    o.error = std::string("input: ") + e.what();
    o.line = e.line();
  } catch (const UsageError& e) {
    o.error = std::string("usage: ") + e.what();
  } catch (const IoError& e) {
    o.error = std::string("io: ") + e.what();
  }
  return o;
}

// Reads `path` whole and in 1..5 parts (kept parses or not, combined in
// order or as a tree) and expects the same outcome every time.
void expect_parts_match(const std::string& path, const ReadOptions& options = {}, int max_parts = 5) {
  const Outcome whole = outcome_of([&] { return read_edge_list(path, options); });
  for (int parts = 1; parts <= max_parts; ++parts)
    for (int variant = 0; variant < 2; ++variant) {
      const std::string what = path + " in " + std::to_string(parts) + " parts" + (variant ? " (kept, tree)" : "");
      const Outcome split = outcome_of([&] { return read_in_parts(path, parts, options, variant, variant).edges; });
      ASSERT_EQ(whole.error, split.error) << what;
      EXPECT_EQ(whole.line, split.line) << what;
      if (whole.edges) expect_same(*whole.edges, *split.edges, what);
    }
}

std::string numbered_el(int lines) {
  std::string t;
  for (int i = 0; i < lines; ++i) t += std::to_string(i) + " " + std::to_string((i * 7 + 3) % lines) + "\n";
  return t;
}

}  // namespace

TEST(IoRange, IntegerEdgeLists) {
  std::string el = "# a comment\n\n% another\n";
  for (int i = 0; i < 200; ++i) {
    el += std::to_string(i) + " " + std::to_string((i * 13) % 97) + "\n";
    if (i % 17 == 0) el += "# every so often\n\n";
  }
  expect_parts_match(write_file("r_comments.el", el));
  expect_parts_match(write_file("r_corners.el", "# c\n% c\n  0 1\n\n1\t2\r\n+2,3\n   \n3 0  \r\n4 5"));
  expect_parts_match(write_file("r_big.el", "9223372036854775807 1000000000000000000\n1 2\n"));
  expect_parts_match(write_file("r_snap.txt", "# Directed graph: x.txt\n# Nodes: 4 Edges: 4\n# FromNodeId\tToNodeId\n"
                                              "0\t1\n1\t2\n2\t3\n3\t0\n"));
  expect_parts_match(write_file("r_three.el", "0 1 2.5\n1 2 3\n2 3 4\n"));
  expect_parts_match(write_file("r_three.el", "0 1 2.5\n1 2 3\n2 3 4\n"), [] {
    ReadOptions o;
    o.weight_column = "none";
    return o;
  }());
  expect_parts_match(write_file("r_one.el", "0 1\n"));
  expect_parts_match(write_file("r_empty.el", ""));
  expect_parts_match(write_file("r_only_comments.el", "# one\n# two\n% three\n"));
  expect_parts_match(write_file("r_only_comments2.el", "# one\n# two\n% three"));
}

TEST(IoRange, WeightedEdgeLists) {
  std::string integer, real;
  for (int i = 0; i < 150; ++i) {
    integer += std::to_string(i) + " " + std::to_string(i + 1) + " " + std::to_string(i % 9) + "\n";
    real += std::to_string(i) + " " + std::to_string(i + 1) + " " + (i == 120 ? "0.5" : std::to_string(i)) + "\n";
  }
  expect_parts_match(write_file("r_int.wel", integer));
  expect_parts_match(write_file("r_real.wel", real));
  expect_parts_match(write_file("r_neg.wel", "0 1 0.5\n1 2 -2\n2 0 1e3\n"));
  expect_parts_match(write_file("r_huge.wel", "0 1 16777218\n1 2 0.1\n"));
  expect_parts_match(write_file("r_noweight.wel", "0 1 2\n1 2\n"));
  expect_parts_match(write_file("r_inexact.wel", "0 1 16777217\n"));
  expect_parts_match(write_file("r_nan.wel", "0 1 1\n1 2 nan\n"));
}

TEST(IoRange, NamesOnlyInALaterPart) {
  // The first lines are integers (the fast path starts), a name comes late:
  // the whole file is a table of names.
  std::string t = numbered_el(300) + "7 alice\nalice bob\n";
  expect_parts_match(write_file("r_late_names.el", t));
  // More columns late; and a '+' id, which the table reads as a name.
  expect_parts_match(write_file("r_late_columns.el", numbered_el(200) + "1 2 3 4\n"));
  expect_parts_match(write_file("r_late_plus.el", numbered_el(200) + "+5 6\n" + numbered_el(50) + "x y\n"));
  // A bad line before the name is the line's own error.
  expect_parts_match(write_file("r_bad_then_name.el", numbered_el(100) + "5 -1\n" + numbered_el(100) + "a b\n"));
  // A weighted file whose names come late.
  std::string w;
  for (int i = 0; i < 120; ++i) w += std::to_string(i) + " " + std::to_string(i + 2) + " 1.5\n";
  expect_parts_match(write_file("r_late_names.wel", w + "a b 2\n"));
  expect_parts_match(write_file("r_late_names2.el", w + "a b 2\n"));
}

TEST(IoRange, EdgeListsWithNames) {
  expect_parts_match(write_file("r_names.el", "alice bob\nbob carol\ncarol alice\ndave alice\n"));
  expect_parts_match(write_file("r_names_header.el", "who whom\nalice bob\nbob carol\ncarol alice\n"));
  expect_parts_match(write_file("r_names_w.el", "source target weight\nalice bob 2\nbob carol 3.5\n"));
  expect_parts_match(write_file("r_nx.el", "a b {'weight': 3.0, 'color': 'red'}\nb c {}\nc a {'weight': 2}\n"
                                           "c d {'w2': 1, 'z': 2}\n"));
  expect_parts_match(write_file("r_nx_bad.el", "a b {'weight': 3.0}\nb c {}\nc a {'weight': 'x'}\n"));
  expect_parts_match(write_file("r_mixed.el", "10 20\n20 x\n"));
}

TEST(IoRange, CsvWithHeaderAndNames) {
  std::string csv = "source,target,weight\n";
  for (int i = 0; i < 120; ++i)
    csv += std::string("v") + std::to_string(i % 37) + ",v" + std::to_string((i * 5) % 41) + "," +
           std::to_string(i % 4) + "\n";
  expect_parts_match(write_file("r_names.csv", csv));
  expect_parts_match(write_file("r_pf.csv", "person,friend\nAlice,Bob\nBob,Carol\nCarol,Dan\nDan,Alice\n"));
  expect_parts_match(write_file("r_ab.csv", "a,b\nc,d\n"));
  expect_parts_match(write_file("r_ab2.csv", "a,b\nc,d\ne,f\ng,h\n"));
  expect_parts_match(write_file("r_ab3.csv", "a,b\nc,d\nd,e\ne,f\n"));
  expect_parts_match(write_file("r_g.csv", "x,y\ny,z\nz,w\n"));
  expect_parts_match(write_file("r_q.csv", "# c\n\"a,1\",b,2\r\nb,\"say \"\"hi\"\"\",3\n\n\"c\" , d ,4\n"));
  expect_parts_match(write_file("r_since.csv", "user_a,user_b,since\n5,6,2015\n6,7,2016\n"));
  expect_parts_match(write_file("r_label.csv", "0,1,red\n1,2,blue\n"));
  expect_parts_match(write_file("r_four.csv", "a,b\n1,2,3,4\n"));
  expect_parts_match(write_file("r_odd.csv", "Person A,Person B\n0,1\n"));
  expect_parts_match(write_file("r_h.csv", "src,dst\n0,1\n1,2\n"));
  ReadOptions by_name;
  by_name.weight_column = "Weight";
  expect_parts_match(write_file("r_names.csv", csv), by_name);
  ReadOptions by_number;
  by_number.weight_column = "2";
  expect_parts_match(write_file("r_names.csv", csv), by_number);
  ReadOptions missing;
  missing.weight_column = "cost";
  expect_parts_match(write_file("r_names.csv", csv), missing);
}

TEST(IoRange, CsvWithoutHeaderIndexColumnsAndTsv) {
  std::string csv;
  for (int i = 0; i < 200; ++i) csv += std::to_string(i) + "," + std::to_string((i * 3) % 200) + "\n";
  expect_parts_match(write_file("r_plain.csv", csv));
  ReadOptions yes, no;
  yes.header = Header::kYes;
  no.header = Header::kNo;
  expect_parts_match(write_file("r_plain.csv", csv), yes);
  expect_parts_match(write_file("r_plain.csv", csv), no);
  std::string pandas = ",user_a,user_b,since\n";
  for (int i = 0; i < 90; ++i)
    pandas += std::to_string(i) + "," + std::to_string(1000 + i) + "," + std::to_string(1001 + i) + ",2015\n";
  expect_parts_match(write_file("r_pd.csv", pandas));
  expect_parts_match(write_file("r_pd_gap.csv", pandas + "91,1,2,2016\n"));  // the index skips 90
  expect_parts_match(write_file("r_r.csv", "\"\",\"from\",\"to\",\"weight\"\n\"1\",\"a\",\"b\",2\n\"2\",\"b\",\"c\",3\n"));
  std::string tsv = "From\tTo\tWeight\n";
  for (int i = 0; i < 80; ++i) tsv += std::string("n") + std::to_string(i) + "\tn" + std::to_string(i / 2) + "\t0.25\n";
  expect_parts_match(write_file("r_names.tsv", tsv));
  expect_parts_match(write_file("r_wr.tsv", "a\tb\t0.5\nb\tc\t2\n"));
  expect_parts_match(write_file("r_one.tsv", "1 2\n"));
}

TEST(IoRange, CsvErrors) {
  expect_parts_match(write_file("r_ragged.csv", "0,1,2\n1,2\n"));
  expect_parts_match(write_file("r_open.csv", "0,1\n\"a,b\n1,2\n"));
  expect_parts_match(write_file("r_stray.csv", "0,1\na\"b,c\n"));
  expect_parts_match(write_file("r_after.csv", "0,1\n\"a\"b,c\n"));
  expect_parts_match(write_file("r_w.csv", "source,target,weight\n0,1,2\n1,2,heavy\n"));
  expect_parts_match(write_file("r_e.csv", "0,1\n,2\n"));
  expect_parts_match(write_file("r_empty.csv", ""));
  expect_parts_match(write_file("r_head.csv", "source,target\n"));
  // A column error after a weight error: the column error comes first.
  expect_parts_match(write_file("r_order.csv", "source,target,weight\n0,1,x\n" + std::string(300, '#') + "\n1,2\n"));
}

TEST(IoRange, MatrixMarketAndDimacs) {
  std::string general = "%%MatrixMarket matrix coordinate real general\n% a comment\n%\n50 60 120\n";
  std::string symmetric = "%%MatrixMarket matrix coordinate integer symmetric\n50 50 120\n";
  std::string pattern = "%%MatrixMarket matrix coordinate pattern general\n50 50 120\n";
  std::string gr = "c a DIMACS file\nc\np sp 50 120\nc arcs\n";
  for (int i = 0; i < 120; ++i) {
    const std::string ij = std::to_string(i % 50 + 1) + " " + std::to_string((i * 7) % 50 + 1);
    general += ij + " " + std::to_string(i * 0.25) + "\n";
    symmetric += ij + " " + std::to_string(i) + "\n";
    pattern += ij + "\n";
    gr += "a " + ij + " " + std::to_string(i % 11) + "\n";
  }
  expect_parts_match(write_file("r_general.mtx", general));
  expect_parts_match(write_file("r_symmetric.mtx", symmetric));
  expect_parts_match(write_file("r_pattern.mtx", pattern));
  ReadOptions none;
  none.weight_column = "none";
  expect_parts_match(write_file("r_general.mtx", general), none);
  expect_parts_match(write_file("r_arcs.gr", gr));
  expect_parts_match(write_file("r_short.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 5\n1 2 1\n"));
  expect_parts_match(write_file("r_bad_head.mtx", "3 3 1\n1 2\n"));
  expect_parts_match(write_file("r_range.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n1 4\n"));
  expect_parts_match(write_file("r_none.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 0\n"));
  expect_parts_match(write_file("r_d1.gr", "c only\na 1 2 3\n"));
  expect_parts_match(write_file("r_d3.gr", "c x\np sp 3 3\na 1 2 1\na 2 3 1\n"));
  expect_parts_match(write_file("r_d4.gr", "p sp 3 1\na 1 2 1\na 2 3 1\n"));
  expect_parts_match(write_file("r_d5.gr", "p sp 2 1\na 1 2 -5\n"));
  expect_parts_match(write_file("r_noext", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n"));
  expect_parts_match(write_file("r_noext2", "# c\n0 1 3\n1 2 4\n"));
  expect_parts_match(write_file("r_noext3", "c x\np sp 2 1\na 1 2 3\n"));
}

// A bad line in part 3 of 5 is reported with its global line number, by the
// part that holds it, with read_edge_list's message.
TEST(IoRange, BadLineInPartThreeNamesTheGlobalLine) {
  struct Case {
    std::string name, head, good, bad;
  };
  const std::vector<Case> cases = {
      {"r_bad.el", "# edges\n", "1 2\n", "3\n"},
      {"r_bad.wel", "", "1 2 0.5\n", "1 2 1e40\n"},
      {"r_bad.csv", "source,target,weight\n", "a,b,1\n", "a,b,heavy\n"},
      {"r_bad.mtx", "%%MatrixMarket matrix coordinate pattern general\n9 9 100\n", "1 2\n", "1 10\n"},
      {"r_bad.gr", "p sp 9 100\n", "a 1 2 3\n", "a 1 2 -3\n"},
  };
  for (const auto& c : cases) {
    std::string text = c.head;
    const int head_lines = static_cast<int>(std::count(c.head.begin(), c.head.end(), '\n'));
    const int bad_at = 70;  // of 100 edge lines: 70% into the file, in part 3 of 0..4
    for (int i = 0; i < 100; ++i) text += i == bad_at ? c.bad : c.good;
    const std::string path = write_file(c.name, text);
    const std::int64_t line = head_lines + bad_at + 1;
    expect_input_error([&] { read_edge_list(path); }, path, line, "");
    const PartsRun spans = [&] {
      PartsRun r;
      std::int64_t at = 1;
      for (int k = 0; k < 5; ++k) {
        r.spans.push_back(part_span(path, {k, 5}));
        r.first_lines.push_back(at);
        at += r.spans.back().newlines;
      }
      return r;
    }();
    ASSERT_LE(spans.first_lines[3], line) << c.name;
    ASSERT_GT(spans.first_lines[4], line) << c.name;
    expect_input_error([&] { read_in_parts(path, 5, {}, false, false); }, path, line, "");
    expect_parts_match(path);
  }
}

TEST(IoRange, QuotedLineBreaks) {
  // A quoted field holding a line break: read whole it is one name; parts
  // read it when no cut falls inside it, else say why they cannot.
  const std::string path = write_file("r_multiline.csv", "a,\"b\nc\"\nd,e\nf,g\nh,i\n");
  const EdgeList whole = read_edge_list(path);
  ASSERT_EQ(whole.size(), 4u);
  expect_same(whole, read_in_parts(path, 1, {}, false, false).edges, "one part");
  bool refused = false;
  for (int parts = 2; parts <= 5; ++parts) {
    const Outcome o = outcome_of([&] { return read_in_parts(path, parts, {}, true, false).edges; });
    if (o.edges) {
      expect_same(whole, *o.edges, std::to_string(parts) + " parts");
    } else {
      refused = true;
      EXPECT_NE(o.error.find("run into the next part"), std::string::npos) << o.error;
      EXPECT_EQ(o.line, 1);
    }
  }
  EXPECT_TRUE(refused);
}

TEST(IoRange, FormatsPartsCannotRead) {
  const std::string metis = write_file("r.graph", "2 1\n2\n1\n");
  expect_error<UsageError>([&] { part_format(metis, {}); }, {"METIS", "numagraph convert"});
  expect_error<UsageError>([&] { part_format(data_file("tiny.sg"), {}); }, {"binary", "numagraph convert"});
  expect_error<UsageError>([&] { part_format(data_file("tiny.el.gz"), {}); }, {"gzip", "decompress"});
  expect_error<UsageError>([&] { part_span(data_file("tiny.el.gz"), {0, 2}); }, {"gzip"});
  expect_error<UsageError>([&] { part_span(data_file("tiny.el"), {2, 2}); }, {"does not exist"});
  ReadOptions column;
  column.weight_column = "3";
  expect_error<UsageError>([&] { part_format(data_file("tiny.mtx"), column); }, {"--weight-column"});
  for (const char* name : {"tiny.el", "tiny.wel", "tiny.mtx", "tiny.gr", "tiny_header.csv", "tiny_names.tsv",
                           "tiny_snap.txt"})
    expect_parts_match(data_file(name));
}

TEST(IoRange, RealGraphs) {
  const std::string dir = NUMAGRAPH_SHARED_DATA;
  int found = 0;
  for (const char* name : {"p2p-Gnutella05/p2p-Gnutella05.txt", "rome99/rome99.gr", "netscience/netscience.mtx"}) {
    const std::string path = dir + "/" + name;
    if (!std::filesystem::exists(path)) continue;
    ++found;
    expect_parts_match(path, {}, 4);
    const EdgeList whole = read_edge_list(path);
    expect_same(whole, read_in_parts(path, 7, {}, true, true).edges, path + " in 7 parts");
  }
  if (found == 0) GTEST_SKIP() << "no real graphs in " << dir;
}

namespace {

// Random files of every shape the readers know, mostly well formed, with a
// sprinkle of what makes them hard: comments, blank lines, names appearing
// late, '+' ids, headers, index columns, dicts, quotes, bad lines.
class RandomFile {
 public:
  explicit RandomFile(std::uint64_t seed) : state_(seed * 2654435761u + 1) { noisy_ = chance(40); }

  std::uint64_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_;
  }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
  bool chance(int percent) { return below(100) < percent; }
  // A rare oddity, in the files chosen to have them.
  bool odd() { return noisy_ && below(100) < 2; }

  std::string id(int vertices, bool names) {
    const int v = below(vertices);
    return names ? std::string("n") + std::to_string(v) : std::to_string(v);
  }
  std::string weight() {
    switch (below(4)) {
      case 0: return std::to_string(below(100));
      case 1: return std::to_string(below(1000)) + ".25";
      case 2: return "1e3";
      default: return std::to_string(below(7));
    }
  }

  // An edge list (el, wel, txt): integers with rare oddities.
  std::string edge_list(bool three) {
    std::string t;
    const int lines = 1 + below(120);
    const int vertices = 2 + below(60);
    const bool names_late = chance(20), all_names = chance(15), header = chance(15);
    if (chance(30)) t += "# a comment\n";
    if (header) t += std::string(chance(50) ? "source target" : "who whom") + (three ? " weight\n" : "\n");
    for (int i = 0; i < lines; ++i) {
      const bool names = all_names || (names_late && i > lines * 3 / 4);
      t += id(vertices, names) + (chance(5) ? "\t" : " ") + id(vertices, names);
      if (three) t += " " + weight();
      if (odd()) t += " 9";
      if (chance(2)) t += "\r";
      t += "\n";
      if (chance(5)) t += "\n";
      if (chance(5)) t += "% note\n";
      if (chance(1)) t += "+3 4\n";
      if (chance(1)) t += "  5 6\n";
      if (odd()) t += "7\n";
      if (odd()) t += three ? "1 2 1e40\n" : "1 2 {'weight': 2}\n";
    }
    if (chance(20)) t.pop_back();  // no final newline
    return t;
  }

  std::string dicts() {
    std::string t;
    const int lines = 1 + below(60);
    for (int i = 0; i < lines; ++i) {
      t += id(20, true) + " " + id(20, true) + " ";
      switch (below(5)) {
        case 0: t += "{}"; break;
        case 1: t += "{'weight': " + weight() + "}"; break;
        case 2: t += "{'color': 'red', 'weight': 2}"; break;
        case 3: t += "{'k" + std::to_string(below(12)) + "': 1}"; break;
        default: t += odd() ? "{'weight': 'x'}" : "{'weight': 1.5, 'z': 0}"; break;
      }
      t += "\n";
    }
    return t;
  }

  std::string table(char sep) {
    std::string t;
    const std::string s(1, sep);
    const int lines = 1 + below(100);
    const int vertices = 2 + below(50);
    const bool names = chance(50), index = chance(15), header = chance(60) || index;
    const int extra = below(3);
    if (header) {
      if (index) t += s;
      t += chance(50) ? "source" + s + "target" : (chance(50) ? "who" + s + "whom" : "a" + s + "b");
      const char* extra_names[] = {"weight", "since", "label", "cost"};
      for (int c = 0; c < extra; ++c) t += s + extra_names[below(4)];
      t += "\n";
    }
    for (int i = 0; i < lines; ++i) {
      if (index) t += std::to_string(i + (chance(2) ? 1 : 0)) + s;
      std::string a = id(vertices, names), b = id(vertices, names);
      if (sep == ',' && chance(5)) a = "\"" + a + (odd() ? "\"x\"" : "\"\"x\"");
      t += a + s + b;
      for (int c = 0; c < extra; ++c) t += s + (odd() ? std::string("red") : weight());
      if (odd()) t += s + "1";
      t += "\n";
      if (chance(4)) t += chance(50) ? "\n" : "# note\n";
      if (odd()) t += s + "2\n";
    }
    return t;
  }

  std::string matrix_market() {
    const int rows = 2 + below(40), entries = below(100);
    const int field = below(3);
    const char* fields[] = {"pattern", "integer", "real"};
    std::string t = std::string("%%MatrixMarket matrix coordinate ") + fields[field] +
                    (chance(50) ? " general\n" : " symmetric\n");
    if (chance(40)) t += "% comment\n%\n";
    t += std::to_string(rows) + " " + std::to_string(rows) + " " + std::to_string(entries + (odd() ? 1 : 0)) + "\n";
    for (int i = 0; i < entries; ++i) {
      t += std::to_string(1 + below(rows + (odd() ? 2 : 0))) + " " + std::to_string(1 + below(rows));
      if (field == 1) t += " " + std::to_string(below(50));
      if (field == 2) t += " " + weight();
      t += "\n";
      if (chance(3)) t += "% c\n";
    }
    return t;
  }

  std::string dimacs() {
    const int nodes = 2 + below(40), arcs = below(100);
    std::string t = "c random\n";
    if (chance(50)) t += "c more\n";
    t += "p sp " + std::to_string(nodes) + " " + std::to_string(arcs + (odd() ? 1 : 0)) + "\n";
    for (int i = 0; i < arcs; ++i) {
      t += "a " + std::to_string(1 + below(nodes)) + " " + std::to_string(1 + below(nodes + (odd() ? 1 : 0))) +
           " " + std::to_string(below(20) - (odd() ? 30 : 0)) + "\n";
      if (chance(3)) t += "c c\n";
    }
    return t;
  }

  ReadOptions options() {
    ReadOptions o;
    const int h = below(10);
    o.header = h == 0 ? Header::kYes : h == 1 ? Header::kNo : Header::kAuto;
    const char* columns[] = {"", "", "", "", "none", "3", "weight", "2", "4", "cost"};
    o.weight_column = columns[below(10)];
    return o;
  }

 private:
  std::uint64_t state_;
  bool noisy_ = false;
};

}  // namespace

TEST(IoRange, RandomFilesMatchTheWholeFileRead) {
  const char* env = std::getenv("NUMAGRAPH_IO_RANGE_FILES");
  const int files = env ? std::atoi(env) : 60;
  for (int n = 0; n < files; ++n) {
    RandomFile r(static_cast<std::uint64_t>(n) + 1);
    std::string name, text;
    switch (r.below(8)) {
      case 0: name = "x.el", text = r.edge_list(false); break;
      case 1: name = "x.wel", text = r.edge_list(true); break;
      case 2: name = "x.txt", text = r.edge_list(r.chance(30)); break;
      case 3: name = "x.el", text = r.dicts(); break;
      case 4: name = "x.csv", text = r.table(','); break;
      case 5: name = "x.tsv", text = r.table('\t'); break;
      case 6: name = "x.mtx", text = r.matrix_market(); break;
      default: name = "x.gr", text = r.dimacs(); break;
    }
    ReadOptions options;
    if (name != "x.mtx" && name != "x.gr") options = r.options();
    const std::string path = write_file("random_" + std::to_string(n) + "_" + name, text);
    SCOPED_TRACE("file " + std::to_string(n) + " (" + path + "):\n" + text.substr(0, 400));
    expect_parts_match(path, options, 6);
    if (::testing::Test::HasFailure()) break;
  }
}
