// Comma-separated lists, the form in which the bindings pass a list of names or numbers
// ("mlp,gated", "relu,silu", "1,2"): splitting, and integers and floats parsed with every bad
// entry reported instead of read as 0.
#pragma once

#include "gatelab/base/status.hpp"
#include <string>
#include <string_view>
#include <vector>

namespace gatelab {

// The non-empty items between commas, in order ("a,,b," → "a", "b").
std::vector<std::string> split_list(std::string_view text);

// One integer: an optional sign and decimal digits that fit an int, nothing else.
bool parse_int(std::string_view text, int& out);

// One finite float in decimal notation ("0.25", "-1e-3", "1"): an optional sign, digits with an
// optional point, an optional exponent, nothing else ("nan", "inf", "0x1p3", " 1" are refused).
bool parse_float(std::string_view text, float& out);

// The items of text as integers, appended to out; ok or a status "<field>: '<item>' is not an integer"
// for the first item that is not one (out then holds the items before it).
Status parse_int_list(std::string_view text, std::string_view field, std::vector<int>& out);

}  // namespace gatelab
