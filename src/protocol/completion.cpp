#include "mcp/protocol/completion.hpp"

#include "protocol/codec.hpp"

namespace mcp {

using detail::ObjectReader;
using detail::write_extra;

json::value to_json(const PromptReference& p) {
  json::object o;
  o["type"] = "ref/prompt";
  o["name"] = p.name;
  if (p.title) o["title"] = *p.title;
  write_extra(o, p.extra, std::nullopt);
  return o;
}

template <>
Result<PromptReference> from_json<PromptReference>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "PromptReference"));
  MCP_CHECK(detail::expect_type(r, "PromptReference", "ref/prompt"));
  MCP_TRY(name, r.str("name"));
  MCP_TRY(title, r.opt_str("title"));
  return PromptReference{std::move(name), std::move(title), r.rest()};
}

json::value to_json(const ResourceTemplateReference& t) {
  json::object o;
  o["type"] = "ref/resource";
  o["uri"] = t.uri;
  write_extra(o, t.extra, std::nullopt);
  return o;
}

template <>
Result<ResourceTemplateReference> from_json<ResourceTemplateReference>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ResourceTemplateReference"));
  MCP_CHECK(detail::expect_type(r, "ResourceTemplateReference", "ref/resource"));
  MCP_TRY(uri, r.str("uri"));
  return ResourceTemplateReference{std::move(uri), r.rest()};
}

json::value to_json(const CompletionReference& ref) {
  return std::visit([](const auto& alt) { return to_json(alt); }, ref);
}

template <>
Result<CompletionReference> from_json<CompletionReference>(const json::value& v) {
  if (!v.is_object()) return fail(Error::invalid_params("CompletionReference: expected an object"));
  const json::string* type = detail::type_tag(v);
  if (type && *type == "ref/prompt") {
    MCP_TRY(p, from_json<PromptReference>(v));
    return CompletionReference(std::move(p));
  }
  if (type && *type == "ref/resource") {
    MCP_TRY(t, from_json<ResourceTemplateReference>(v));
    return CompletionReference(std::move(t));
  }
  return fail(Error::invalid_params("CompletionReference.type: expected \"ref/prompt\" or \"ref/resource\""));
}

json::value to_json(const CompletionArgument& a) {
  json::object o;
  o["name"] = a.name;
  o["value"] = a.value;
  write_extra(o, a.extra, std::nullopt);
  return o;
}

template <>
Result<CompletionArgument> from_json<CompletionArgument>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "CompletionArgument"));
  MCP_TRY(name, r.str("name"));
  MCP_TRY(value, r.str("value"));
  return CompletionArgument{std::move(name), std::move(value), r.rest()};
}

json::value to_json(const CompletionContext& c) {
  json::object o;
  if (!c.arguments.empty()) o["arguments"] = detail::to_json_object(c.arguments);
  write_extra(o, c.extra, std::nullopt);
  return o;
}

template <>
Result<CompletionContext> from_json<CompletionContext>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "CompletionContext"));
  MCP_TRY(arguments, detail::opt_string_map(r, "CompletionContext", "arguments"));
  return CompletionContext{std::move(arguments), r.rest()};
}

json::value to_json(const CompleteRequestParams& p) {
  json::object o;
  o["ref"] = to_json(p.ref);
  o["argument"] = to_json(p.argument);
  if (p.context) o["context"] = to_json(*p.context);
  write_extra(o, p.extra, p.meta);
  return o;
}

template <>
Result<CompleteRequestParams> from_json<CompleteRequestParams>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "CompleteRequestParams"));
  MCP_TRY(ref, r.req<CompletionReference>("ref"));
  MCP_TRY(argument, r.req<CompletionArgument>("argument"));
  MCP_TRY(context, r.opt<CompletionContext>("context"));
  MCP_TRY(meta, detail::request_meta(r, "CompleteRequestParams"));
  return CompleteRequestParams{std::move(ref), std::move(argument), std::move(context), std::move(meta), r.rest()};
}

json::value to_json(const Completion& c) {
  json::object o;
  o["values"] = detail::to_json_array(c.values);
  if (c.total) o["total"] = *c.total;
  if (c.has_more) o["hasMore"] = *c.has_more;
  write_extra(o, c.extra, std::nullopt);
  return o;
}

template <>
Result<Completion> from_json<Completion>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "Completion"));
  if (!v.get_object().contains("values"))
    return fail(detail::field_error("Completion", "values", "required field is missing"));
  MCP_TRY(values, detail::opt_strings(r, "Completion", "values"));
  MCP_TRY(total, r.opt_int("total"));
  MCP_TRY(has_more, r.opt_bool("hasMore"));
  return Completion{std::move(values), total, has_more, r.rest()};
}

json::value to_json(const CompleteResult& c) {
  json::object o;
  o["completion"] = to_json(c.completion);
  write_extra(o, c.extra, c.meta);
  return o;
}

template <>
Result<CompleteResult> from_json<CompleteResult>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "CompleteResult"));
  MCP_TRY(completion, r.req<Completion>("completion"));
  MCP_TRY(meta, r.meta());
  return CompleteResult{std::move(completion), std::move(meta), r.rest()};
}

}  // namespace mcp
