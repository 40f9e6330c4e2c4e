// Reading a file in parts (io_range.hpp) gives what read_edge_list gives for
// the whole file: for K = 1..5 parts (1..6 for METIS), the three passes run in a loop (as
// numagraph-mpi runs them over ranks) and the parts' edges, concatenated,
// must equal the whole file's: ids, weights, kinds, vertex counts, direction,
// decisions and names by first appearance; errors must be the same exception
// with the same global line.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
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
  std::int64_t line = 1, total_newlines = 0, data_lines = 0;
  for (int k = 0; k < parts; ++k) {
    run.spans.push_back(part_span(path, {k, parts}, format));
    run.first_lines.push_back(line);
    line += run.spans.back().newlines;
    total_newlines += run.spans.back().newlines;
    run.spans.back().data_lines_before = data_lines;  // METIS: the vertex of the part's first data line
    data_lines += run.spans.back().data_lines;
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

// CSV/TSV files of integer ids take the parallel fast path (csv_fast.hpp);
// a line it does not read sends its part back to the tokenizer, in any part.
TEST(IoRange, CsvIntegerFastPath) {
  std::string rows, weighted;
  for (int i = 0; i < 300; ++i) {
    rows += std::to_string(i) + "," + std::to_string((i * 7) % 300) + "\n";
    weighted += std::to_string(i) + "," + std::to_string(i / 2) + "," + (i % 5 ? std::to_string(i % 9) : "0.5") + "\n";
  }
  const std::string header = write_file("f_header.csv", "src,dst\n" + rows);
  expect_parts_match(header);
  const EdgeList e = read_edge_list(header);
  ASSERT_EQ(e.size(), 300u);
  EXPECT_TRUE(e.header);
  EXPECT_EQ(e.src[299], 299u);
  EXPECT_EQ(e.dst[299], (299u * 7) % 300);
  ReadOptions yes, no, none, third;
  yes.header = Header::kYes;
  no.header = Header::kNo;
  none.weight_column = "none";
  third.weight_column = "3";
  const std::string plain = write_file("f_plain.csv", rows);
  for (const ReadOptions& o : {ReadOptions{}, yes, no}) expect_parts_match(plain, o);
  EXPECT_EQ(read_edge_list(plain, yes).size(), 299u);
  const std::string w = write_file("f_w.csv", "source,target,weight\n" + weighted);
  for (const ReadOptions& o : {ReadOptions{}, none, third}) expect_parts_match(w, o);
  const EdgeList we = read_edge_list(w);
  ASSERT_EQ(we.weights.size(), 300u);
  EXPECT_EQ(we.weight_kind, WeightKind::kReal);
  EXPECT_EQ(we.weights[0], 0.5f);
  EXPECT_EQ(we.weights[1], 1.0f);
  expect_parts_match(write_file("f_w0.csv", weighted));  // row 0 an edge with a weight
  std::string tsv = rows;
  std::replace(tsv.begin(), tsv.end(), ',', '\t');
  expect_parts_match(write_file("f.tsv", "from\tto\n" + tsv));
  std::string crlf;
  for (char c : rows) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  expect_parts_match(write_file("f_crlf.csv", crlf));
  expect_parts_match(write_file("f_blank.csv", "# made by hand\n\nsrc,dst\n" + rows + "\n  \n# end\n"));
  expect_parts_match(write_file("f_late_head.csv", std::string(400, '#') + "\n" + rows));  // row 0 in a later part
  expect_parts_match(write_file("f_unterminated.csv", rows + "5,6"));
  expect_parts_match(write_file("f_bom.csv", "\xEF\xBB\xBF" + rows));
  // Lines for the tokenizer late in the file: each part decides alone.
  expect_parts_match(write_file("f_name.csv", rows + "a,7\n"));
  expect_parts_match(write_file("f_big.csv", rows + "9223372036854775808,1\n"));
  expect_parts_match(write_file("f_19.csv", rows + "1234567890123456789,1\n"));
  expect_parts_match(write_file("f_quote.csv", rows + "\"4\",5\n"));
  expect_parts_match(write_file("f_open.csv", rows + "\"4,5\n1,2\n"));
  expect_parts_match(write_file("f_space.csv", rows + " 4 , 5 \n"));
  expect_parts_match(write_file("f_cols.csv", rows + "4,5,6\n"));
  expect_parts_match(write_file("f_heavy.csv", weighted + "4,5,1e40\n"));
  expect_parts_match(write_file("f_exact.csv", weighted + "4,5,16777217\n"));
  expect_parts_match(write_file("f_nan.csv", weighted + "4,5,nan\n"));
  expect_parts_match(write_file("f_plus.csv", weighted + "4,5,+2\n"));
  expect_parts_match(write_file("f_empty_w.csv", weighted + "4,5,\n"));
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

namespace {

// A METIS file of the undirected edges {i, (i * step + 1) % n} (and a
// self-loop at vertex 0 when `loop`), listed at both ends: `fmt` is the
// header's fmt field ("" for none), `ncon` its vertex weights per line (0:
// not written). Every `comment_every` vertex lines a comment line; vertex
// i % 7 == 3 has no edges when `isolated`, so its line is blank.
std::string metis_text(int n, int step, const std::string& fmt, int ncon, int comment_every, bool isolated,
                       bool loop) {
  const std::string f = std::string(3 - std::min<std::size_t>(fmt.size(), 3), '0') + fmt;
  const bool sizes = f[0] == '1', vertex_weights = f[1] == '1', edge_weights = f[2] == '1';
  std::vector<std::vector<std::pair<int, int>>> adj(static_cast<std::size_t>(n));
  int m = 0;
  for (int i = 0; i < n; ++i) {
    const int j = (i * step + 1) % n;
    if (i == j || (isolated && (i % 7 == 3 || j % 7 == 3))) continue;
    const int w = 1 + (i * 31 + j) % 13;
    adj[i].push_back({j, w});
    adj[j].push_back({i, w});
    ++m;
  }
  if (loop) {
    adj[0].push_back({0, 4});
    ++m;
  }
  std::string t = "% a METIS graph\n%\n" + std::to_string(n) + " " + std::to_string(m);
  if (!fmt.empty()) t += " " + fmt;
  if (ncon > 0) t += " " + std::to_string(ncon);
  t += "\n";
  for (int i = 0; i < n; ++i) {
    std::string line;
    if (sizes) line += std::to_string(1 + i % 5) + " ";
    if (vertex_weights)
      for (int c = 0; c < std::max(ncon, 1); ++c) line += std::to_string(i % 9) + " ";
    for (auto [x, w] : adj[i]) {
      line += std::to_string(x + 1) + " ";
      if (edge_weights) line += std::to_string(w) + " ";
    }
    if (!line.empty() && i % 2) line.pop_back();  // some lines end in a blank, some not
    t += line + "\n";
    if (comment_every > 0 && i % comment_every == comment_every - 1) t += "% vertex " + std::to_string(i + 1) + "\n";
  }
  return t;
}

}  // namespace

TEST(IoRange, MetisFiles) {
  struct Variant {
    std::string fmt;
    int ncon;
  };
  const std::vector<Variant> variants = {{"", 0},   {"0", 0},   {"1", 0},   {"001", 0}, {"10", 0},  {"10", 2},
                                         {"11", 0}, {"011", 3}, {"100", 0}, {"110", 2}, {"111", 1}, {"101", 0}};
  for (const auto& v : variants)
    for (int comments : {0, 3}) {
      const std::string name = "r_metis_" + (v.fmt.empty() ? std::string("none") : v.fmt) + "_" +
                               std::to_string(v.ncon) + "_" + std::to_string(comments) + ".graph";
      expect_parts_match(write_file(name, metis_text(150, 7, v.fmt, v.ncon, comments, comments > 0, comments > 0)),
                         {}, 6);
    }
  ReadOptions none;
  none.weight_column = "none";
  expect_parts_match(write_file("r_metis_w.graph", metis_text(90, 5, "1", 0, 4, true, false)), none, 6);
  // The format from the content: a .txt file whose first line is a METIS header.
  ReadOptions metis;
  metis.format = Format::kMetis;
  expect_parts_match(write_file("r_metis.txt", metis_text(60, 3, "", 0, 0, false, false)), metis, 6);
  // Blank lines: isolated vertices at the end, blank lines past the n-th
  // vertex (allowed), blank lines before the header, CRLF, no final newline.
  expect_parts_match(write_file("r_m_iso.graph", "% metis\n4 1\n2\n1\n\n\n"), {}, 6);
  expect_parts_match(write_file("r_m_past.graph", "\n% c\n\n3 2\n2\n1 3\n2\n\n  \n% end\n\n"), {}, 6);
  expect_parts_match(write_file("r_m_crlf.graph", "3 2\r\n2\r\n1 3\r\n2\r\n"), {}, 6);
  expect_parts_match(write_file("r_m_last.graph", "3 2 1\n2 4\n1 4 3 5\n2 5"), {}, 6);
  expect_parts_match(write_file("r_m_loop.graph", "2 2\n1 2\n1\n"), {}, 6);
  expect_parts_match(data_file("tiny.graph"), {}, 6);
}

TEST(IoRange, MetisErrors) {
  const std::string good = metis_text(120, 11, "1", 0, 5, true, false);
  // Line errors, with their global lines (a comment ahead moves them).
  expect_parts_match(write_file("r_me_id.graph", "% c\n2 1\n3\n1\n"), {}, 6);
  expect_parts_match(write_file("r_me_late_id.graph", good + "% c\n"), {}, 6);
  std::string late = good;
  late.insert(late.rfind("\n", late.size() - 2) + 1, "999 1\n");  // an id beyond n, near the end
  expect_parts_match(write_file("r_me_late.graph", late), {}, 6);
  expect_parts_match(write_file("r_me_more.graph", good + "1 1\n"), {}, 6);              // a 121st vertex line
  expect_parts_match(write_file("r_me_more_blank.graph", good + "\n\n7\n"), {}, 6);      // past blank lines
  expect_parts_match(write_file("r_me_more_then_bad.graph", good + "1 1\nx\n"), {}, 6);  // the extra line first
  expect_parts_match(write_file("r_me_weight.graph", "2 1 1\n2 0\n1 0\n"), {}, 6);
  expect_parts_match(write_file("r_me_neg.graph", "2 1 1\n2 -3\n1 -3\n"), {}, 6);
  expect_parts_match(write_file("r_me_size.graph", "2 1 100\n\n1 1\n"), {}, 6);  // a blank line lacks the size
  // Header errors and counts.
  expect_parts_match(write_file("r_me_fmt.graph", "% c\n2 1 7\n2\n1\n"), {}, 6);
  expect_parts_match(write_file("r_me_head.graph", "% c\n2 x\n2\n1\n"), {}, 6);
  expect_parts_match(write_file("r_me_empty.graph", ""), {}, 6);
  expect_parts_match(write_file("r_me_comments.graph", "% only\n%\n"), {}, 6);
  expect_parts_match(write_file("r_me_count.graph", "3 5\n2\n1 3\n2\n"), {}, 6);
  expect_parts_match(write_file("r_me_short.graph", "4 1\n2\n1\n"), {}, 6);
  expect_parts_match(write_file("r_me_short2.graph", "4 1"), {}, 6);
  expect_parts_match(write_file("r_me_short3.graph", good.substr(0, good.size() / 2)), {}, 6);
  expect_parts_match(write_file("r_me_n0.graph", "0 0\n"), {}, 6);
  expect_parts_match(write_file("r_me_m0.graph", "3 0\n\n\n\n"), {}, 6);
}

// An edge listed at one end only: read whole (or as one part) the line is
// named; in more parts the entries of other parts cannot be matched, and the
// message says which command names the line.
TEST(IoRange, MetisAsymmetricAdjacency) {
  std::string text = metis_text(200, 9, "", 0, 0, false, false);
  const std::size_t at = text.find("\n", text.size() * 3 / 5) + 1;  // a vertex line 60% in
  const std::size_t eol = text.find("\n", at);
  const std::size_t cut = text.rfind(' ', text.find_last_not_of(' ', eol - 1));
  ASSERT_GT(cut, at);
  text.erase(cut, eol - cut);  // drop the line's last neighbour
  for (const std::string& name : {std::string("r_asym.graph"), std::string("r_asym_w.graph")}) {
    std::string t = text;
    if (name == "r_asym_w.graph") t = "2 1 1\n2 5\n1 6\n";  // the same edge, two weights
    const std::string path = write_file(name, t);
    const Outcome whole = outcome_of([&] { return read_edge_list(path); });
    ASSERT_GT(whole.line, 0) << whole.error;
    EXPECT_NE(whole.error.find("not symmetric"), std::string::npos) << whole.error;
    const Outcome one = outcome_of([&] { return read_in_parts(path, 1, {}, true, false).edges; });
    EXPECT_EQ(one.error, whole.error);
    EXPECT_EQ(one.line, whole.line);
    for (int parts = 2; parts <= 6; ++parts) {
      const Outcome split = outcome_of([&] { return read_in_parts(path, parts, {}, parts % 2, parts % 2).edges; });
      EXPECT_EQ(split.line, 0) << split.error;
      EXPECT_EQ(split.error, "input: " + path + ": the adjacency is not symmetric: a line lists an edge u-v (or a "
                             "weight) that the other endpoint's line does not (METIS files list every edge at "
                             "both endpoints); read in parts, the line cannot be named: `numagraph info " + path +
                             "` reads the file whole and names it");
    }
  }
}

// A METIS part needs the data lines before it: without part_span's count, or
// with sums that do not add up, the passes say what to set.
TEST(IoRange, MetisPartsNeedTheDataLinesBefore) {
  const std::string path = write_file("r_m_numbering.graph", metis_text(80, 3, "", 0, 2, false, false));
  const Format format = part_format(path, {});
  ASSERT_EQ(format, Format::kMetis);
  PartSpan uncounted = part_span(path, {1, 3});
  EXPECT_EQ(uncounted.data_lines, -1);
  expect_error<UsageError>([&] { part_facts(path, format, uncounted, 1, {}); },
                           {"METIS", "part_span(path, part, Format::kMetis)", "data_lines_before"});
  std::vector<PartSpan> spans;
  std::vector<std::int64_t> first;
  std::int64_t line = 1, total = 0;
  for (int k = 0; k < 3; ++k) {
    spans.push_back(part_span(path, {k, 3}, format));
    EXPECT_GT(spans.back().data_lines, 0);
    first.push_back(line);
    line += spans.back().newlines;
    total += spans.back().newlines;
  }
  EXPECT_EQ(spans[0].data_lines + spans[1].data_lines + spans[2].data_lines, 80);  // the vertex lines
  // Every part left at data_lines_before = 0: the parts overlap in vertices.
  PartFacts whole;
  for (int k = 0; k < 3; ++k) combine(whole, part_facts(path, format, spans[k], first[k], {}));
  expect_error<UsageError>([&] { check_whole_file(path, format, whole, total); }, {"data_lines_before"});
  EXPECT_EQ(part_span(data_file("tiny.el"), {0, 1}, Format::kEdgeList).data_lines, 0);
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
      {"r_bad.graph", "% c\n100 50\n", "1\n", "101\n"},
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

// A bad line deep in a long integer edge list, read whole and in parts with
// 1 and 4 threads (so the line falls in a later chunk of the fast path and
// chunks after it are read on): the same message and global line as the
// whole file's read, whether the line is the line's own error (the file
// stays an edge list) or a name or more columns (the file is a table), and
// with other odd lines ('+' ids, indentation, comments, later bad lines)
// before and after it.
TEST(IoRange, BadLineDeepInALongEdgeListKeepsItsMessage) {
  struct Case {
    std::string name, bad, what;
    bool extras;  // odd but valid lines around the bad one, and a later bad line
  };
  const std::vector<Case> cases = {
      {"deep_bad.el", "4321\n", "missing target id (line ends early)", false},
      {"deep_bad2.el", "4321\n", "missing target id (line ends early)", true},
      {"deep_word.el", "12 x7\n", "", true},
      {"deep_cols.el", "1 2 3\n", "", true},
      {"deep_bad.wel", "1 2\n", "", true},
  };
  const int saved = omp_get_max_threads();
  const int lines = 40000, bad_at = 31000;
  for (const auto& c : cases) {
    const bool weighted = c.name.ends_with(".wel");
    std::string text;
    for (int i = 0; i < lines; ++i) {
      if (i == bad_at) {
        text += c.bad;
        continue;
      }
      std::string line = std::to_string(i) + " " + std::to_string((i * 7 + 3) % lines);
      if (weighted) line += " " + std::to_string(i % 5 + 1);
      if (c.extras && i % 4999 == 17) line = "+" + line;
      if (c.extras && i % 3001 == 5) line = "  " + line;
      if (c.extras && i % 2003 == 9) line = "# note\n" + line;
      if (c.extras && i == bad_at + 3000) line = "7\n" + line;
      text += line + "\n";
    }
    const std::string path = write_file(c.name, text);
    for (int threads : {1, 4}) {
      omp_set_num_threads(threads);
      const Outcome whole = outcome_of([&] { return read_edge_list(path); });
      ASSERT_FALSE(whole.error.empty()) << c.name;
      if (!c.what.empty()) {
        const std::int64_t line = bad_at + 1 + (c.extras ? bad_at / 2003 + 1 : 0);
        expect_input_error([&] { read_edge_list(path); }, path, line, c.what);
        EXPECT_EQ(whole.line, line) << c.name;
      }
      expect_parts_match(path, {}, 5);
    }
  }
  omp_set_num_threads(saved);
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
  expect_error<UsageError>([&] { part_format(data_file("tiny.sg"), {}); }, {"binary", "numagraph convert"});
  expect_error<UsageError>([&] { part_format(data_file("tiny.el.gz"), {}); }, {"gzip", "decompress"});
  expect_error<UsageError>([&] { part_span(data_file("tiny.el.gz"), {0, 2}); }, {"gzip"});
  expect_error<UsageError>([&] { part_span(data_file("tiny.el"), {2, 2}); }, {"does not exist"});
  ReadOptions column;
  column.weight_column = "3";
  expect_error<UsageError>([&] { part_format(data_file("tiny.mtx"), column); }, {"--weight-column"});
  for (const char* name : {"tiny.el", "tiny.wel", "tiny.mtx", "tiny.gr", "tiny_header.csv", "tiny_names.tsv",
                           "tiny_snap.txt", "tiny.graph"})
    expect_parts_match(data_file(name));
}

TEST(IoRange, RealGraphs) {
  const std::string dir = NUMAGRAPH_SHARED_DATA;
  int found = 0;
  for (const char* name : {"p2p-Gnutella05/p2p-Gnutella05.txt", "rome99/rome99.gr", "netscience/netscience.mtx",
                           "PGPgiantcompo/PGPgiantcompo.graph"}) {
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

  // A METIS file: a random undirected graph (self-loops and repeated edges
  // too) in one of the fmt variants, with comments and blank lines; in the
  // files chosen to have one, one oddity: an entry at one end only, a weight
  // that differs, counts off by one, an id beyond n, a zero weight, a vertex
  // line too many or too few.
  std::string metis() {
    const int oddity = noisy_ ? below(8) : -1;
    const int n = 1 + below(60);
    const bool sizes = chance(20), vertex_weights = chance(30), edge_weights = chance(50);
    const int ncon = vertex_weights && chance(40) ? 1 + below(3) : 1;
    std::vector<std::vector<std::pair<int, int>>> adj(static_cast<std::size_t>(n));
    int m = 0;
    for (int k = below(3 * n); k > 0; --k) {
      const int u = below(n), v = below(n), w = 1 + below(9);
      if (u == v && !chance(30)) continue;
      adj[u].push_back({v, w});
      if (u != v) adj[v].push_back({u, w});
      ++m;
    }
    const int target = below(n);  // the line of a bad id or weight
    if (oddity == 0 && !adj[n / 2].empty()) adj[n / 2].pop_back();
    if (oddity == 1 && !adj[n / 3].empty()) adj[n / 3].back().second += 1;
    if (oddity == 2 || oddity == 3) m += oddity == 2 ? 1 : -1;
    std::string t;
    if (chance(30)) t += "% a METIS file\n";
    if (chance(10)) t += "\n";
    t += std::to_string(n) + " " + std::to_string(m);
    if (sizes || vertex_weights || edge_weights || chance(30)) {
      std::string fmt = std::string(sizes ? "1" : "") + (sizes || vertex_weights ? (vertex_weights ? "1" : "0") : "") +
                        (edge_weights ? "1" : "0");
      if (chance(30)) fmt = std::string(3 - fmt.size(), '0') + fmt;
      t += " " + fmt;
      if (vertex_weights && (ncon > 1 || chance(30))) t += " " + std::to_string(ncon);
    }
    t += "\n";
    const int lines = n + (oddity == 6 ? 1 : 0) - (oddity == 7 ? 1 : 0);
    for (int i = 0; i < lines; ++i) {
      if (i < n) {
        if (sizes) t += std::to_string(1 + below(4)) + " ";
        if (vertex_weights)
          for (int c = 0; c < ncon; ++c) t += std::to_string(below(5)) + " ";
        for (auto [x, w] : adj[i]) {
          const bool bad = i == target && x == adj[i].front().first;
          t += std::to_string(bad && oddity == 4 ? n + 1 : x + 1) + " ";
          if (edge_weights) t += std::to_string(bad && oddity == 5 ? 0 : w) + " ";
        }
      } else {
        t += "1";
      }
      if (chance(2)) t += "\r";
      t += "\n";
      if (chance(6)) t += chance(50) ? "% c\n" : "  % indented\n";
    }
    if (chance(10)) t += "\n\n";  // blank lines past the n-th vertex
    if (chance(20) && !t.empty()) t.pop_back();
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

TEST(IoRange, RandomMetisFilesMatchTheWholeFileRead) {
  const char* env = std::getenv("NUMAGRAPH_IO_RANGE_FILES");
  const int files = env ? std::atoi(env) : 60;
  for (int n = 0; n < files; ++n) {
    RandomFile r(static_cast<std::uint64_t>(n) + 1000);
    const std::string text = r.metis();
    const std::string path = write_file("random_metis_" + std::to_string(n) + ".graph", text);
    SCOPED_TRACE("file " + std::to_string(n) + " (" + path + "):\n" + text.substr(0, 400));
    const Outcome whole = outcome_of([&] { return read_edge_list(path); });
    if (whole.error.find("not symmetric") != std::string::npos) {
      // Only a whole-file read names the line (MetisAsymmetricAdjacency).
      for (int parts = 2; parts <= 6; ++parts) {
        const Outcome split = outcome_of([&] { return read_in_parts(path, parts, {}, true, true).edges; });
        EXPECT_NE(split.error.find("not symmetric"), std::string::npos) << split.error;
      }
      continue;
    }
    expect_parts_match(path, {}, 6);
    if (::testing::Test::HasFailure()) break;
  }
}
