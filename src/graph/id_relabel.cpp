#include "id_relabel.hpp"

#include <parallel/algorithm>

#include <algorithm>
#include <bit>

#include "numagraph/parallel/parallel.hpp"

namespace numagraph::build {

namespace {

void set_bit(std::uint64_t* words, std::uint64_t id) {
  std::uint64_t& word = words[id / 64];
  const std::uint64_t bit = std::uint64_t{1} << (id % 64);
  // Most ids repeat: a plain read skips the locked write for bits already set.
  if ((parallel::load_relaxed(word) & bit) == 0) __atomic_fetch_or(&word, bit, __ATOMIC_RELAXED);
}

}  // namespace

std::optional<IdBitmap> IdBitmap::of(const EdgeList& e, std::uint64_t max_id) {
  const std::int64_t m = static_cast<std::int64_t>(e.size());
  if (max_id / 64 > static_cast<std::uint64_t>(m) + 1024) return std::nullopt;
  IdBitmap ids;
  ids.words_.assign(max_id / 64 + 1, 0);
  std::uint64_t* words = ids.words_.data();
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < m; ++i) {
    set_bit(words, e.src[i]);
    set_bit(words, e.dst[i]);
  }
  std::uint64_t total = 0;
  const std::int64_t nwords = static_cast<std::int64_t>(ids.words_.size());
#pragma omp parallel for reduction(+ : total) schedule(static)
  for (std::int64_t w = 0; w < nwords; ++w) total += static_cast<std::uint64_t>(std::popcount(words[w]));
  ids.distinct_ = total;
  return ids;
}

NumaArray<std::uint64_t> IdBitmap::relabel(EdgeList& e) {
  const std::int64_t nwords = static_cast<std::int64_t>(words_.size());
  // before[w]: the ids set in words 0..w-1, the rank of word w's first id.
  std::vector<std::uint64_t> before(words_.size() + 1);
#pragma omp parallel for schedule(static)
  for (std::int64_t w = 0; w < nwords; ++w) before[w] = static_cast<std::uint64_t>(std::popcount(words_[w]));
  parallel::exclusive_prefix_sum(before.data(), before.data(), nwords);
  NumaArray<std::uint64_t> labels(distinct_);
#pragma omp parallel for schedule(static)
  for (std::int64_t w = 0; w < nwords; ++w) {
    std::uint64_t rank = before[w];
    for (std::uint64_t bits = words_[w]; bits != 0; bits &= bits - 1)
      labels[rank++] = static_cast<std::uint64_t>(w) * 64 + static_cast<std::uint64_t>(std::countr_zero(bits));
  }
  auto rank = [&](std::uint64_t id) {
    const std::uint64_t below = words_[id / 64] & ((std::uint64_t{1} << (id % 64)) - 1);
    return before[id / 64] + static_cast<std::uint64_t>(std::popcount(below));
  };
  const std::int64_t m = static_cast<std::int64_t>(e.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < m; ++i) {
    e.src[i] = rank(e.src[i]);
    e.dst[i] = rank(e.dst[i]);
  }
  return labels;
}

NumaArray<std::uint64_t> relabel_by_sorting(EdgeList& e) {
  const std::size_t m = e.size();
  std::vector<std::uint64_t> ids(2 * m);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(m); ++i) {
    ids[2 * i] = e.src[i];
    ids[2 * i + 1] = e.dst[i];
  }
  __gnu_parallel::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  NumaArray<std::uint64_t> labels(ids.size());
  std::copy(ids.begin(), ids.end(), labels.begin());
  auto rank = [&](std::uint64_t id) {
    return static_cast<std::uint64_t>(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
  };
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(m); ++i) {
    e.src[i] = rank(e.src[i]);
    e.dst[i] = rank(e.dst[i]);
  }
  return labels;
}

}  // namespace numagraph::build
