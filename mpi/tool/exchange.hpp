// The one personalised all-to-all every distributed step uses: each rank has
// a vector of items per destination rank; afterwards it holds the items every
// rank sent it, grouped by source rank in rank order. Items are trivially
// copyable structs moved as bytes; counts travel as MPI ints, so one call
// moves at most 2^31 - 1 items per rank pair (more is refused with the fix).
#pragma once

#include <mpi.h>

#include <climits>
#include <string_view>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "comm.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::dist {

template <typename T>
struct Received {
  std::vector<T> items;
  std::vector<std::int64_t> from;  // items[from[r] .. from[r + 1]) came from rank r (size P + 1)
};

// Contiguous MPI type of sizeof(T) bytes, committed once per T.
template <typename T>
MPI_Datatype item_type() {
  static MPI_Datatype type = [] {
    MPI_Datatype t;
    MPI_Type_contiguous(static_cast<int>(sizeof(T)), MPI_BYTE, &t);
    MPI_Type_commit(&t);
    return t;
  }();
  return type;
}

inline int mpi_count(std::int64_t c, const char* what) {
  if (c > INT_MAX)
    throw ResourceError(std::string(what) + ": more than 2^31 - 1 items between two ranks in one step; run with "
                        "more ranks");
  return static_cast<int>(c);
}

// Collective over `comm`. `send[r]` goes to rank r; the vectors are left as they were.
template <typename T>
Received<T> exchange(const std::vector<std::vector<T>>& send, MPI_Comm comm, const char* what = "exchange") {
  static_assert(std::is_trivially_copyable_v<T>);
  int p = 1;
  MPI_Comm_size(comm, &p);
  std::vector<int> send_counts(p), send_displs(p), recv_counts(p), recv_displs(p);
  std::int64_t total = 0;
  for (int r = 0; r < p; ++r) {
    send_counts[r] = mpi_count(static_cast<std::int64_t>(send[r].size()), what);
    send_displs[r] = mpi_count(total, what);
    total += send_counts[r];
  }
  std::vector<T> packed(static_cast<std::size_t>(total));
  for (int r = 0; r < p; ++r)
    std::copy(send[r].begin(), send[r].end(), packed.begin() + send_displs[r]);
  check(MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm), "MPI_Alltoall");
  Received<T> in;
  in.from.assign(static_cast<std::size_t>(p) + 1, 0);
  for (int r = 0; r < p; ++r) {
    recv_displs[r] = mpi_count(in.from[r], what);
    in.from[r + 1] = in.from[r] + recv_counts[r];
  }
  in.items.resize(static_cast<std::size_t>(in.from[p]));
  check(MPI_Alltoallv(packed.data(), send_counts.data(), send_displs.data(), item_type<T>(), in.items.data(),
                      recv_counts.data(), recv_displs.data(), item_type<T>(), comm),
        "MPI_Alltoallv");
  return in;
}

// Variable-length strings to other ranks: lengths and bytes in two exchanges.
struct Strings {
  std::vector<std::string_view> items;
  std::vector<std::int64_t> from;
  std::vector<char> bytes;
};

inline Strings exchange_strings(const std::vector<std::vector<std::string_view>>& send, MPI_Comm c) {
  int p = 1;
  MPI_Comm_size(c, &p);
  std::vector<std::vector<std::uint32_t>> lengths(static_cast<std::size_t>(p));
  std::vector<std::vector<char>> bytes(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r)
    for (std::string_view s : send[r]) {
      lengths[r].push_back(static_cast<std::uint32_t>(s.size()));
      bytes[r].insert(bytes[r].end(), s.begin(), s.end());
    }
  Received<std::uint32_t> len = exchange(lengths, c, "the names");
  Received<char> chars = exchange(bytes, c, "the names");
  Strings out;
  out.bytes = std::move(chars.items);
  out.from = len.from;
  std::size_t at = 0;
  for (std::uint32_t l : len.items) {
    out.items.emplace_back(out.bytes.data() + at, l);
    at += l;
  }
  return out;
}

// Sum, max, min and logical or over all ranks.
inline std::int64_t sum_all(std::int64_t x, MPI_Comm comm) {
  std::int64_t r = 0;
  check(MPI_Allreduce(&x, &r, 1, MPI_INT64_T, MPI_SUM, comm), "MPI_Allreduce");
  return r;
}
inline std::int64_t max_all(std::int64_t x, MPI_Comm comm) {
  std::int64_t r = 0;
  check(MPI_Allreduce(&x, &r, 1, MPI_INT64_T, MPI_MAX, comm), "MPI_Allreduce");
  return r;
}
inline std::int64_t min_all(std::int64_t x, MPI_Comm comm) {
  std::int64_t r = 0;
  check(MPI_Allreduce(&x, &r, 1, MPI_INT64_T, MPI_MIN, comm), "MPI_Allreduce");
  return r;
}
inline double max_all(double x, MPI_Comm comm) {
  double r = 0;
  check(MPI_Allreduce(&x, &r, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
  return r;
}
inline double sum_all(double x, MPI_Comm comm) {
  double r = 0;
  check(MPI_Allreduce(&x, &r, 1, MPI_DOUBLE, MPI_SUM, comm), "MPI_Allreduce");
  return r;
}
inline bool any_all(bool x, MPI_Comm comm) { return max_all(std::int64_t{x}, comm) != 0; }

}  // namespace numagraph::dist
