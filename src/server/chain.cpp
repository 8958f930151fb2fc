#include "server/chain.hpp"

namespace mcp {

ChainView::Entered ChainView::enter(Call& call) const {
  Entered e;
  for (; e.depth < size(); ++e.depth) {
    e.answer = at(e.depth).on_request(call);
    if (e.answer) {
      ++e.depth;  // the stage that answered sees its answer go out, like those before it
      break;
    }
  }
  return e;
}

void ChainView::leave(const Call& call, std::size_t depth, Result<json::value>& answer) const {
  for (std::size_t i = depth; i-- > 0;) at(i).on_result(call, answer);
}

bool ChainView::keep(const Call& call, ListedItem& item) const {
  for (std::size_t i = size(); i-- > 0;) {
    if (!at(i).on_list_item(call, item)) return false;
  }
  return true;
}

namespace {

class FunctionStage final : public Stage {
 public:
  FunctionStage(std::string name, StageFunctions f) : name_(std::move(name)), f_(std::move(f)) {}
  std::string_view name() const override { return name_; }
  std::optional<Result<json::value>> on_request(Call& call) override {
    return f_.on_request ? f_.on_request(call) : std::nullopt;
  }
  bool on_list_item(const Call& call, ListedItem& item) override {
    return !f_.on_list_item || f_.on_list_item(call, item);
  }
  void on_result(const Call& call, Result<json::value>& answer) override {
    if (f_.on_result) f_.on_result(call, answer);
  }

 private:
  std::string name_;
  StageFunctions f_;
};

}  // namespace

std::shared_ptr<Stage> make_stage(std::string name, StageFunctions functions) {
  return std::make_shared<FunctionStage>(std::move(name), std::move(functions));
}

}  // namespace mcp
