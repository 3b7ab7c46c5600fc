// A character corpus for the language-model sessions (docs/MATH.md §B13): the byte-level
// vocabulary of a text, its contiguous train / dev / validation splits, the fixed evaluation
// windows every curve point uses, and the trivial baselines (uniform, unigram).
#pragma once

#include "gatelab/base/status.hpp"
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gatelab {

// Byte-level character vocabulary of a text: symbols in increasing byte order.
struct CharVocab {
  std::vector<unsigned char> symbols;
  std::array<int, 256> index{};  // −1 for bytes the text does not contain
  int size() const { return static_cast<int>(symbols.size()); }
};
CharVocab char_vocab(std::string_view text);

enum class CorpusSplit { train, dev, validation };
const char* corpus_split_name(CorpusSplit split);  // "train", "dev", "validation"

// The text as symbol indices, cut into three contiguous pieces: the first
// N − ⌊N·dev⌋ − ⌊N·val⌋ characters train, then dev, then validation (dev may be 0).
struct CharCorpus {
  CharVocab vocab;
  std::vector<std::int32_t> train, dev, validation;
  const std::vector<std::int32_t>& split(CorpusSplit s) const {
    return s == CorpusSplit::train ? train : s == CorpusSplit::dev ? dev : validation;
  }
};

inline constexpr std::size_t min_corpus_chars = 1000;
// ok when fine: 0 ≤ dev_fraction, 0 < validation_fraction, dev + validation < 0.5, and a text
// of at least min_corpus_chars characters.
Status make_char_corpus(std::string_view text, double dev_fraction, double validation_fraction, CharCorpus& out);

// Start offsets of `limit` evenly spaced non-overlapping windows of `context` + 1 characters
// in a split (starts ⌊iW/U⌋·C; all W windows when limit is 0 or ≥ W). The same set at every
// evaluation, so the points of a curve are comparable.
std::vector<std::size_t> evaluation_windows(std::size_t split_size, int context, int limit);

struct CorpusBaselines {
  double uniform = 0;  // log V nats per character
  double unigram = 0;  // cross-entropy of the add-one smoothed train frequencies on validation
};
CorpusBaselines corpus_baselines(const CharCorpus& corpus);

// Symbols back to text.
std::string corpus_text(const CharVocab& vocab, const std::int32_t* symbols, std::size_t count);

}  // namespace gatelab
