// Combining the facts of consecutive parts (part_facts.hpp). Every fold is
// associative, so parts may be combined in any grouping that keeps their order.
#include "part_facts.hpp"

#include <algorithm>

namespace numagraph::io {

namespace {

void combine_text(LineText& earlier, const LineText& later) {
  if (earlier.line == 0) earlier = later;
}

void combine_numbers(NumberFacts& a, const NumberFacts& b) {
  combine_text(a.not_number, b.not_number);
  first_line(a.bad_weight, b.bad_weight);
  a.integral = a.integral && b.integral;
}

void combine_ids(IdFacts& a, const IdFacts& b) {
  for (int j = 0; j < 2; ++j) first_line(a.column_error[j], b.column_error[j]);
  a.all_integer = a.all_integer && b.all_integer;
  a.any_integer = a.any_integer || b.any_integer;
  combine_text(a.text, b.text);
  first_line(a.big_line, b.big_line);
}

void combine_index(IndexFacts& a, const IndexFacts& b) {
  if (!b.rows) {
    a.counting = a.counting && b.counting;
    return;
  }
  if (!a.rows) {
    const bool counting = a.counting && b.counting;
    a = b;
    a.counting = counting;
    return;
  }
  a.counting = a.counting && b.counting && b.first == a.last + 1;
  a.last = b.last;
}

void combine_header(HeaderFacts& a, const HeaderFacts& b) {
  a.elsewhere = a.elsewhere || b.elsewhere;
  a.repeat = a.repeat || b.repeat;
  bool overlap = a.maybe_repeat || b.maybe_repeat;
  for (std::size_t i = 0; i < kSeenWords; ++i) {
    overlap = overlap || (a.seen[i] & b.seen[i]) != 0;
    a.seen[i] |= b.seen[i];
  }
  a.maybe_repeat = overlap;
  if (!a.hashes_complete || !b.hashes_complete) {
    a.hashes_complete = 0;
    return;
  }
  // Both lists are every name's: a hash in both is a name in both.
  std::uint64_t merged[2 * kNameHashes];
  std::size_t n = 0, i = 0, j = 0;
  while (i < a.hash_count || j < b.hash_count) {
    if (j == b.hash_count || (i < a.hash_count && a.hashes[i] < b.hashes[j])) {
      merged[n++] = a.hashes[i++];
    } else if (i == a.hash_count || b.hashes[j] < a.hashes[i]) {
      merged[n++] = b.hashes[j++];
    } else {
      a.repeat = 1;
      merged[n++] = a.hashes[i++];
      ++j;
    }
  }
  if (n > kNameHashes) {
    a.hashes_complete = 0;
    return;
  }
  std::copy(merged, merged + n, a.hashes);
  a.hash_count = static_cast<std::uint16_t>(n);
}

void combine_dicts(DictFacts& a, const DictFacts& b) {
  first_line(a.bad, b.bad);
  first_line(a.bad_weight, b.bad_weight);
  a.with += b.with;
  a.without += b.without;
  a.integral = a.integral && b.integral;
  a.key_too_long = a.key_too_long || b.key_too_long;
  for (int i = 0; i < b.key_count; ++i) a.add_key(b.key(i));
}

void combine_metis(MetisFacts& a, const MetisFacts& b) {
  a.numbered = a.numbered && b.numbered && b.first_vertex == a.first_vertex + a.vertex_lines;
  a.vertex_lines += b.vertex_lines;
  a.entries += b.entries;
  a.loops += b.loops;
  a.upper += b.upper;
  a.lower += b.lower;
  a.upper_hash += b.upper_hash;
  a.lower_hash += b.lower_hash;
  a.unmatched_line = 0;  // two parts: neither is the whole file
}

}  // namespace

void combine_bodies(FactsBody& a, const FactsBody& b) {
  if (!b.filled) return;
  if (!a.filled) {
    a = b;
    return;
  }
  if (a.edge_error == 0) {
    a.edge_error = b.edge_error;
    a.edge_error_needs_table = b.edge_error_needs_table;
  }
  a.edge_integral = a.edge_integral && b.edge_integral;
  first_line(a.tokenizer_error, b.tokenizer_error);
  for (int s = 0; s < 2; ++s) combine_ids(a.ids[s], b.ids[s]);
  for (int k = 0; k < kWeightCandidates; ++k) combine_numbers(a.numbers[k], b.numbers[k]);
  combine_index(a.index, b.index);
  combine_header(a.header_facts, b.header_facts);
  combine_dicts(a.dicts, b.dicts);
  combine_metis(a.metis, b.metis);
}

}  // namespace numagraph::io
