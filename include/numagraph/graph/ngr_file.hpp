// A .ngr file opened without loading it: the header checked and every
// section located and bounds-checked, but no array read. numagraph-mpi uses
// it so that each rank maps the file and touches only its own vertices'
// offsets, lists, labels and names; read_ngr builds its zero-copy views from
// the same checks. The layout is in docs/formats.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "numagraph/graph/io.hpp"
#include "numagraph/graph/types.hpp"

namespace numagraph::io {

struct NgrFile {
  enum Direction { kOut = 0, kIn = 1 };

  std::string path;
  std::shared_ptr<const void> keep_alive;  // the mapping the pointers below view
  const std::uint8_t* data = nullptr;
  std::size_t size = 0;

  std::int64_t n = 0;           // vertices
  std::int64_t arcs = 0;        // stored arcs per direction
  std::int64_t self_loops = 0;  // as the header counts them
  int id_bits = 32;
  WeightKind weight_kind = WeightKind::kNone;
  bool directed = false, in_edges = false, labelled = false, reordered = false, named = false;
  std::uint64_t stored_checksum = 0;

  // Sections (nullptr when absent). Offsets are int64[n + 1], neighbours
  // uint32[arcs] or uint64[arcs] by id_bits, weights float32[arcs].
  const eid_t* offsets[2] = {nullptr, nullptr};
  const void* neighbors[2] = {nullptr, nullptr};
  const weight_t* weights[2] = {nullptr, nullptr};
  const std::uint64_t* labels = nullptr;  // uint64[n]: user id of stored vertex v
  const void* permutation = nullptr;      // id_bits[n]: original id of stored vertex v
  std::uint64_t names_at = 0;             // byte offset of the names section, 0 = none

  bool weighted() const { return weight_kind != WeightKind::kNone; }
  // Neighbour k of a direction's lists, whatever the id width.
  std::uint64_t neighbor(Direction d, std::int64_t k) const {
    return id_bits == 32 ? static_cast<const std::uint32_t*>(neighbors[d])[k]
                         : static_cast<const std::uint64_t*>(neighbors[d])[k];
  }
  std::uint64_t permuted(std::int64_t v) const {
    return id_bits == 32 ? static_cast<const std::uint32_t*>(permutation)[v]
                         : static_cast<const std::uint64_t*>(permutation)[v];
  }
  // The id the user's files and outputs use for stored vertex v: its label,
  // else its id before a renumbering, else v.
  std::uint64_t user_id(std::int64_t v) const {
    return labels ? labels[v] : permutation ? permuted(v) : static_cast<std::uint64_t>(v);
  }
};

// Whether `path` is to be read as a .ngr: `format` says so, else its
// extension (.ngr, .ngr.gz), else (no known extension) its first 8 bytes.
// False when the file cannot be opened (the reader then says why).
bool is_ngr_input(const std::string& path, Format format);

// Maps `path` (not a .gz: its parts cannot be read in place) and checks the
// header and the sections' placement, as read_ngr does, without reading any
// array. Throws InputError naming the file, or IoError.
NgrFile open_ngr(const std::string& path);

// The checksum in pieces, for ranks that each read part of the file: the
// file's body is cut into ngr_checksum_blocks(f) blocks of 1 MiB;
// ngr_block_sums gives the sums of blocks [lo, hi), and the checksum matches
// when the sums of all blocks, in order, combine to the stored value.
std::int64_t ngr_checksum_blocks(const NgrFile& f);
std::vector<std::uint64_t> ngr_block_sums(const NgrFile& f, std::int64_t lo, std::int64_t hi);
bool ngr_checksum_matches(const NgrFile& f, const std::vector<std::uint64_t>& all_sums);

// The structural checks read_ngr makes, on the lists of vertices [lo, hi)
// of one direction: offsets do not decrease (and run from 0 to arcs at the
// ends of the file), ids are below n, each list is sorted, weights are
// finite. Throws InputError naming the file and the first bad vertex.
void check_ngr_lists(const NgrFile& f, NgrFile::Direction d, std::int64_t lo, std::int64_t hi);

// The names section read one name at a time (name k is the name of the
// vertex whose user id is k), each bounds-checked.
class NgrNames {
 public:
  explicit NgrNames(const NgrFile& f);
  std::string_view name(std::uint64_t k) const;
  bool complete() const;  // the last name ends where the text does

 private:
  const NgrFile* f_;
  const std::uint8_t* ends_ = nullptr;
  const char* text_ = nullptr;
  std::uint64_t count_ = 0, text_bytes_ = 0;
};

}  // namespace numagraph::io
