// Private: running the stages of mcp/server/stage.hpp over one request.
//
// A session's chain is three runs of stages: the server's outermost ones (added with
// use(..., StagePlace::outermost)), the session's own outer ones (log, signature: they need the
// session's signature) and the server's inner ones (those added with use(), then availability).
// use() may replace the server's lists at any time; each request takes them once, so one request
// sees one chain from start to end.
#pragma once

#include <memory>
#include <vector>

#include "mcp/server/stage.hpp"

namespace mcp {

using StageList = std::vector<std::shared_ptr<Stage>>;

class ChainView {
 public:
  ChainView(std::shared_ptr<const StageList> first, std::shared_ptr<const StageList> outer,
            std::shared_ptr<const StageList> inner)
      : first_(std::move(first)), outer_(std::move(outer)), inner_(std::move(inner)) {}

  // on_request of each stage, outermost first, until one answers. `depth` is then how many stages
  // saw the request: only they see the answer in leave().
  struct Entered {
    std::optional<Result<json::value>> answer;
    std::size_t depth = 0;
  };
  Entered enter(Call& call) const;
  // on_result of the first `depth` stages, innermost first.
  void leave(const Call& call, std::size_t depth, Result<json::value>& answer) const;
  // on_list_item of every stage, innermost first; false as soon as one hides the item.
  bool keep(const Call& call, ListedItem& item) const;
  std::size_t size() const { return first_size() + outer_size() + (inner_ ? inner_->size() : 0); }
  // The server's outermost stages: they see the answer of a request refused before the chain too
  // (leave() with this depth), though not the request.
  std::size_t first_size() const { return first_ ? first_->size() : 0; }

 private:
  std::size_t outer_size() const { return outer_ ? outer_->size() : 0; }
  Stage& at(std::size_t i) const {
    if (i < first_size()) return *(*first_)[i];
    i -= first_size();
    return i < outer_size() ? *(*outer_)[i] : *(*inner_)[i - outer_size()];
  }

  // Shared, never copied per request: a request holds the lists for its whole life.
  std::shared_ptr<const StageList> first_;
  std::shared_ptr<const StageList> outer_;
  std::shared_ptr<const StageList> inner_;
};

// What a request naming an item that does not exist (or that it may not see) gets.
Error unknown_item_error(const Target& target);

// The built-in stages (builtin_stages.cpp).
struct SessionSignature;
struct AvailabilityHooks;
std::shared_ptr<Stage> make_log_stage(std::string session_id);
// `signature` may be null (a server without one): the stage then passes everything.
std::shared_ptr<Stage> make_signature_stage(std::shared_ptr<const SessionSignature> signature);
std::shared_ptr<Stage> make_availability_stage(std::shared_ptr<const AvailabilityHooks> hooks);
// Per-item capability requirements (requirements.cpp).
struct RequirementTable;
std::shared_ptr<Stage> make_requirements_stage(std::shared_ptr<const RequirementTable> table);

}  // namespace mcp
