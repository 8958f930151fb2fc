// Output and listing helpers of `mcp-trust client` (client_cli.hpp).
#include "cli_io.hpp"
#include "client_cli.hpp"
#include "commands.hpp"

namespace mcp::cli {

void ClientRun::emit(const std::string& text_line, const json::object& event) const {
  (void)write_stdout(json_output ? to_string(event) + "\n" : text_line + "\n");
}

void ClientRun::on_violation(const SignatureViolation& v) const {
  // Strict mode reports the error that ends the session instead (fail_with).
  if (mode == EnforcementMode::strict) return;
  json::object event{{"event", "violation"}, {"mode", to_string(mode)}, {"violation", to_json(v)}};
  emit("violation (" + std::string(to_string(mode)) + "): " + peer_text(v.describe(), 4096), event);
}

std::set<std::string> ClientRun::print_list(ListKind kind, const json::array& items,
                                            const std::optional<std::set<std::string>>& previous) const {
  static const std::set<std::string> kNone;
  const std::set<std::string>& before = previous ? *previous : kNone;
  std::set<std::string> now;
  std::string names;
  json::array keys;
  for (const auto& i : items) {
    const json::value* k = i.is_object() ? i.get_object().if_contains(key_field(kind)) : nullptr;
    if (k == nullptr || !k->is_string()) continue;
    std::string key(k->get_string());
    names += (names.empty() ? "" : ", ") + peer_text(key);
    keys.emplace_back(key);
    now.insert(std::move(key));
  }
  json::array added, removed;
  std::string diff;
  for (const auto& k : now)
    if (!before.contains(k)) { added.emplace_back(k); diff += "\n  + " + peer_text(k); }
  for (const auto& k : before)
    if (!now.contains(k)) { removed.emplace_back(k); diff += "\n  - " + peer_text(k); }
  std::string line = std::string(list_method(kind)) + ": " + (names.empty() ? "(empty)" : names);
  if (previous) line += diff;
  emit(line, json::object{{"event", "list"}, {"list", list_method(kind)}, {"items", std::move(keys)},
                          {"added", std::move(added)}, {"removed", std::move(removed)}});
  return now;
}

Result<json::array> list_kind(Client& client, ListKind kind) {
  json::array out;
  auto add = [&out](const auto& items) {
    for (const auto& i : items) out.push_back(to_json(i));
  };
  switch (kind) {
    case ListKind::tools: {
      auto r = client.list_all_tools();
      if (!r) return fail(r.error());
      add(*r);
      break;
    }
    case ListKind::prompts: {
      auto r = client.list_all_prompts();
      if (!r) return fail(r.error());
      add(*r);
      break;
    }
    case ListKind::resources: {
      auto r = client.list_all_resources();
      if (!r) return fail(r.error());
      add(*r);
      break;
    }
    case ListKind::resource_templates: {
      auto r = client.list_all_resource_templates();
      if (!r) return fail(r.error());
      add(*r);
      break;
    }
  }
  return out;
}

std::vector<ListKind> supported_lists(const Client& client) {
  std::vector<ListKind> out;
  if (client.server_supports("tools")) out.push_back(ListKind::tools);
  if (client.server_supports("prompts")) out.push_back(ListKind::prompts);
  if (client.server_supports("resources")) {
    out.push_back(ListKind::resources);
    out.push_back(ListKind::resource_templates);
  }
  return out;
}

int fail_with(const ClientRun& run, const Error& e) {
  const bool violation = e.code == kSignatureViolationCode || e.code == kManifestViolationCode;
  if (run.json_output) {
    json::object err{{"code", e.code}, {"message", e.message}};
    if (e.data) err["data"] = *e.data;
    run.emit("", json::object{{"event", "error"}, {"error", std::move(err)}});
  }
  report("client", violation ? e.message + " (strict mode: the session was ended)" : e.message);
  return violation ? kExitVerifyFailed : kExitError;
}

}  // namespace mcp::cli
