// The option catalogue (gatelab/<area>/options.hpp): the lists the JS API refuses unknown options
// from, and the name sets its figures offer, must agree with what the core's parsers take. In
// the top area's tests, since the catalogue spans every area.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <string>

#include "gatelab/base/activations.hpp"
#include "gatelab/cem/common.hpp"
#include "gatelab/cem/options.hpp"
#include "gatelab/gp/data.hpp"
#include "gatelab/gp/options.hpp"
#include "gatelab/paper_a/layer.hpp"
#include "gatelab/paper_a/options.hpp"
#include "gatelab/train/dataset.hpp"
#include "gatelab/train/loss.hpp"
#include "gatelab/train/optimizer.hpp"
#include "gatelab/train/options.hpp"
#include "gatelab/train/race.hpp"
#include "gatelab/train/trainer.hpp"

using namespace gatelab;

namespace {

struct Catalogue {
  OptionEntries entries;
  NameSets names;
  Catalogue() {
    add_base_options(entries, names);
    add_paper_a_options(entries, names);
    add_cem_options(entries, names);
    add_train_options(entries, names);
    add_gp_options(entries, names);
  }
};

}  // namespace

TEST(OptionLists, EveryReferenceResolvesAndNoNameRepeats) {
  const Catalogue c;
  std::set<std::string> entries, sets;
  for (const OptionEntry& e : c.entries) EXPECT_TRUE(entries.insert(e.name).second) << e.name;
  for (const NameSet& s : c.names) {
    EXPECT_TRUE(sets.insert(s.name).second) << s.name;
    EXPECT_FALSE(s.values.empty()) << s.name;
  }
  for (const OptionEntry& e : c.entries) {
    std::set<std::string> fields;
    for (const OptionField& f : e.fields) {
      EXPECT_TRUE(fields.insert(camel_case(f.name)).second) << e.name << "." << f.name;
      if (f.type == OptionType::name) EXPECT_EQ(sets.count(f.of), 1u) << e.name << "." << f.name;
      if (f.type == OptionType::object) EXPECT_EQ(entries.count(f.of), 1u) << e.name << "." << f.name;
      if (f.type == OptionType::list && !f.of.empty()) {
        EXPECT_TRUE(sets.count(f.of) + entries.count(f.of) == 1) << e.name << "." << f.name;
      }
    }
  }
}

TEST(OptionLists, EveryNameSetValueParses) {
  const Catalogue c;
  using Parse = std::function<bool(const std::string&)>;
  const std::map<std::string, Parse> parsers = {
      {"activations", [](const std::string& v) { return parse_activation(v).has_value(); }},
      {"kinds", [](const std::string& v) { return parse_layer_kind(v).has_value(); }},
      {"diagonals", [](const std::string& v) { return parse_cem_diagonal(v).has_value(); }},
      {"preconditioners", [](const std::string& v) { return parse_cem_precond(v).has_value(); }},
      {"families", [](const std::string& v) { return parse_cem_family(v).has_value(); }},
      {"tasks", [](const std::string& v) { return parse_task(v).has_value(); }},
      {"losses", [](const std::string& v) { return parse_loss(v).has_value(); }},
      {"optimizers", [](const std::string& v) { return parse_optimizer(v).has_value(); }},
      {"trainerOptimizers", [](const std::string& v) { return parse_optimizer(v).has_value(); }},
      {"widthRules", [](const std::string& v) { return parse_width_rule(v).has_value(); }},
      {"gpInputs", [](const std::string& v) { return parse_gp_inputs(v).has_value(); }},
      {"teleportGoals",
       [](const std::string& v) {
         TeleportGoal goal;
         return parse_teleport_goal(v, goal).ok();
       }},
  };
  // The label sets say what readers see, index by index with their key set.
  const std::map<std::string, std::string> label_sets = {{"kindLabels", "kinds"},
                                                         {"activationLabels", "activations"},
                                                         {"activationShortLabels", "activations"},
                                                         {"gatedNames", "activations"}};
  const auto size_of = [&](const std::string& name) {
    for (const NameSet& s : c.names) {
      if (s.name == name) return s.values.size();
    }
    return std::size_t{0};
  };
  for (const NameSet& s : c.names) {
    if (const auto keys = label_sets.find(s.name); keys != label_sets.end()) {
      EXPECT_EQ(s.values.size(), size_of(keys->second)) << s.name;
      continue;
    }
    const auto parse = parsers.find(s.name);
    ASSERT_NE(parse, parsers.end()) << "no parser checks the name set " << s.name;
    for (const std::string& v : s.values) EXPECT_TRUE(parse->second(v)) << s.name << ": " << v;
  }
  EXPECT_EQ(c.names.front().values.size(), static_cast<std::size_t>(activation_count));
}

TEST(OptionLists, TheCatalogueJsonSpellsNamesAsTheApiDoes) {
  const Catalogue c;
  const std::string json = option_catalogue_json(c.entries, c.names, {{"per_head", "per-head"}});
  EXPECT_NE(json.find(R"("dIn":{"type":"integer","min":1,"max":4096})"), std::string::npos);
  EXPECT_NE(json.find(R"("kind":{"type":"name","of":"kinds"})"), std::string::npos);
  EXPECT_NE(json.find(R"("diagonals":["none","per-head","shared"])"), std::string::npos);
  EXPECT_EQ(json.find("per_head"), std::string::npos);
  EXPECT_EQ(json.front(), '{');
  EXPECT_EQ(json.back(), '}');
}
