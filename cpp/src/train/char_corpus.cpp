// The character corpus of the language-model sessions (see char_corpus.hpp).
#include "gatelab/train/char_corpus.hpp"

#include <algorithm>

#include "base/scalar_math.hpp"

namespace gatelab {

CharVocab char_vocab(std::string_view text) {
  CharVocab v;
  v.index.fill(-1);
  std::array<bool, 256> seen{};
  for (char c : text) seen[static_cast<unsigned char>(c)] = true;
  for (int b = 0; b < 256; ++b) {
    if (!seen[b]) continue;
    v.index[b] = v.size();
    v.symbols.push_back(static_cast<unsigned char>(b));
  }
  return v;
}

const char* corpus_split_name(CorpusSplit split) {
  switch (split) {
    case CorpusSplit::train: return "train";
    case CorpusSplit::dev: return "dev";
    case CorpusSplit::validation: return "validation";
  }
  return "?";
}

Status make_char_corpus(std::string_view text, double dev_fraction, double validation_fraction, CharCorpus& out) {
  if (text.size() < min_corpus_chars) {
    return out_of_range("text", "the text must hold at least " + std::to_string(min_corpus_chars) +
                                    " characters (got " + std::to_string(text.size()) + ")");
  }
  if (!(dev_fraction >= 0.0 && validation_fraction > 0.0 && dev_fraction + validation_fraction < 0.5)) {
    // The field named is the one to change: a negative dev share, else the validation share.
    return invalid_value(dev_fraction >= 0.0 ? "validation_fraction" : "dev_fraction",
                         "dev and validation fractions must be ≥ 0 and > 0 with a sum below 0.5");
  }
  out.vocab = char_vocab(text);
  const std::size_t n = text.size();
  const std::size_t val = static_cast<std::size_t>(double(n) * validation_fraction);
  const std::size_t dev = static_cast<std::size_t>(double(n) * dev_fraction);
  const std::size_t train = n - dev - val;
  out.train.clear();
  out.dev.clear();
  out.validation.clear();
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t s = out.vocab.index[static_cast<unsigned char>(text[i])];
    (i < train ? out.train : i < train + dev ? out.dev : out.validation).push_back(s);
  }
  return {};
}

std::vector<std::size_t> evaluation_windows(std::size_t split_size, int context, int limit) {
  std::vector<std::size_t> starts;
  if (context < 1 || split_size < std::size_t(context) + 1) return starts;
  const std::size_t windows = (split_size - 1) / std::size_t(context);
  const std::size_t used = limit > 0 ? std::min<std::size_t>(std::size_t(limit), windows) : windows;
  for (std::size_t i = 0; i < used; ++i) starts.push_back(i * windows / used * std::size_t(context));
  return starts;
}

CorpusBaselines corpus_baselines(const CharCorpus& corpus) {
  CorpusBaselines b;
  const int v = corpus.vocab.size();
  b.uniform = scalar::log(double(v));
  std::vector<double> counts(v, 1.0);  // add-one: every symbol of the text is possible
  for (auto t : corpus.train) counts[t] += 1.0;
  const double total = double(corpus.train.size()) + v;
  double loss = 0;
  for (auto t : corpus.validation) loss -= scalar::log(counts[t] / total);
  b.unigram = loss / double(corpus.validation.size());
  return b;
}

std::string corpus_text(const CharVocab& vocab, const std::int32_t* symbols, std::size_t count) {
  std::string out;
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::int32_t s = symbols[i];
    out += s >= 0 && s < vocab.size() ? static_cast<char>(vocab.symbols[s]) : '?';
  }
  return out;
}

}  // namespace gatelab
