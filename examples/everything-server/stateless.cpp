// Fixtures of the MCP 2026-07-28 server scenarios: multi round-trip tools and prompt
// (input-required-result-*), the tools server-stateless drives, one tool for each policy of
// per-request capability requirements, and a tool whose argument travels in an Mcp-Param header
// (http-custom-header-server-validation). Names and texts follow the
// conformance suite's scenario descriptions. Each multi round-trip fixture is one handler for
// both revisions: over 2025-11-25 the server asks the client itself (RequestContext::input_required).
#include "fixture.hpp"
#include "mcp/protocol/elicitation.hpp"

namespace everything {

using namespace mcp;

namespace {

json::object form(std::string message, std::string field) {
  return json::object{
      {"message", std::move(message)},
      {"requestedSchema",
       json::object{{"type", "object"},
                    {"properties", json::object{{field, json::object{{"type", "string"}}}}},
                    {"required", json::array{json::string(field)}}}}};
}

json::object question(std::string text, std::int64_t max_tokens) {
  return json::object{
      {"messages", json::array{json::object{{"role", "user"}, {"content", json::object{{"type", "text"}, {"text", std::move(text)}}}}}},
      {"maxTokens", max_tokens}};
}

// The text of an answer, for a result that shows what came back.
std::string shown(const json::object* answer) { return answer ? json::serialize(*answer) : "(none)"; }

// The `round` a fixture's own state records (0: a first call).
std::int64_t round_of(const RequestContext& ctx) {
  const auto& state = ctx.request_state();
  const json::object* o = state ? state->if_object() : nullptr;
  const json::value* round = o ? o->if_contains("round") : nullptr;
  return round && round->is_int64() ? round->get_int64() : 0;
}

using Handler = std::function<Result<CallToolResult>(const json::object&, RequestContext&)>;

// A tool that needs one answer, `key`, to `request`: asks until it has it, then shows it.
Handler asks_once(std::string key, InputRequest request, std::string done) {
  return [key = std::move(key), request = std::move(request), done = std::move(done)](
             const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    if (const json::object* answer = ctx.input_response(key)) return CallToolResult::text(done + ": " + shown(answer));
    return ctx.input_required({{key, request}});
  };
}

void add_input_required_tools(Server& s) {
  s.add_tool(tool("test_input_required_result_elicitation", "Asks the user's name through a multi round-trip elicitation"),
             asks_once("user_name", InputRequest::elicit(form("What is your name?", "name")), "elicitation answered"));
  s.add_tool(tool("test_input_required_result_sampling", "Asks the client's model a question through a multi round-trip"),
             asks_once("capital_question", InputRequest::create_message(question("What is the capital of France?", 100)),
                       "sampling answered"));
  s.add_tool(tool("test_input_required_result_list_roots", "Asks for the client's roots through a multi round-trip"),
             asks_once("client_roots", InputRequest::list_roots(), "roots answered"));

  s.add_tool(tool("test_input_required_result_request_state", "Asks for confirmation, keeping its state in requestState"),
             [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
               if (round_of(ctx) == 1 && ctx.input_response("confirm")) {
                 return CallToolResult::text("state-ok: " + shown(ctx.input_response("confirm")));
               }
               return ctx.input_required({{"confirm", InputRequest::elicit(form("Please confirm", "ok"))}},
                                         json::object{{"round", 1}});
             });

  s.add_tool(tool("test_input_required_result_multiple_inputs", "Needs an elicitation, a sampling answer and the roots at once"),
             [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
               const json::object* name = ctx.input_response("user_name");
               const json::object* greeting = ctx.input_response("greeting");
               const json::object* roots = ctx.input_response("client_roots");
               if (round_of(ctx) == 1 && name && greeting && roots) {
                 return CallToolResult::text("all inputs received: " + shown(name) + " " + shown(greeting) + " " + shown(roots));
               }
               return ctx.input_required({{"user_name", InputRequest::elicit(form("What is your name?", "name"))},
                                          {"greeting", InputRequest::create_message(question("Generate a greeting", 50))},
                                          {"client_roots", InputRequest::list_roots()}},
                                         json::object{{"round", 1}});
             });

  s.add_tool(tool("test_input_required_result_multi_round", "Asks two questions, one round each"),
             [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
               const std::int64_t round = round_of(ctx);
               if (round == 2 && ctx.input_response("step2")) {
                 return CallToolResult::text("multi-round complete: " + shown(ctx.input_response("step2")));
               }
               if (round >= 1 && ctx.input_response("step1")) {
                 return ctx.input_required(
                     {{"step2", InputRequest::elicit(form("Step 2: What is your favorite color?", "color"))}},
                     json::object{{"round", 2}});
               }
               return ctx.input_required({{"step1", InputRequest::elicit(form("Step 1: What is your name?", "name"))}},
                                         json::object{{"round", 1}});
             });

  // A changed requestState never reaches this handler: the server refuses it first.
  s.add_tool(tool("test_input_required_result_tampered_state", "Refuses a requestState it did not issue"),
             [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
               if (round_of(ctx) == 1 && ctx.input_response("confirm")) return CallToolResult::text("state verified");
               return ctx.input_required({{"confirm", InputRequest::elicit(form("Please confirm", "ok"))}},
                                         json::object{{"round", 1}});
             });

  // Asks through whichever capability this request declares, elicitation first.
  s.add_tool(tool("test_input_required_result_capabilities", "Asks only through capabilities the client declared"),
             [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
               if (const json::object* answer = ctx.input_response("input")) {
                 return CallToolResult::text("input received: " + shown(answer));
               }
               if (ctx.client_supports("elicitation")) {
                 return ctx.input_required({{"input", InputRequest::elicit(form("What is your name?", "name"))}});
               }
               if (ctx.client_supports("sampling")) {
                 return ctx.input_required({{"input", InputRequest::create_message(question("What is your name?", 50))}});
               }
               if (ctx.client_supports("roots")) return ctx.input_required({{"input", InputRequest::list_roots()}});
               return CallToolResult::text("the client declared no capability to ask it anything with");
             });
}

void add_input_required_prompt(Server& s) {
  Prompt p;
  p.name = "test_input_required_result_prompt";
  p.description = "A prompt that asks the user for its context first";
  s.add_prompt(p, [](const std::map<std::string, std::string>&, RequestContext& ctx) -> Result<GetPromptResult> {
    auto answer = ctx.input_response_as<ElicitResult>("user_context");
    if (!answer) return fail(answer.error());
    if (!*answer) {
      return ctx.input_required(
          {{"user_context", InputRequest::elicit(form("What context should the prompt use?", "context"))}});
    }
    const auto& content = (*answer)->content;
    const json::value* context = content ? content->if_contains("context") : nullptr;
    GetPromptResult r;
    PromptMessage m;
    m.role = Role::user;
    m.content = TextContent{.text = "Context: " + (context && context->is_string() ? std::string(context->get_string())
                                                                                 : std::string("(none given)"))};
    r.messages.push_back(std::move(m));
    return r;
  });
}

void add_server_stateless_tools(Server& s) {
  s.add_tool(tool("test_missing_capability", "Needs the client's sampling capability"),
             [](const json::object&, RequestContext&) -> Result<CallToolResult> {
               return CallToolResult::text("the client declared sampling");
             });
  // Listed to every client with its requirement; called without it, -32021 (mcp/server/requirements.hpp).
  s.require_capabilities(ListKind::tools, "test_missing_capability",
                         CapabilityRequirement{.capabilities = json::object{{"sampling", json::object{}}}});

  s.add_tool(tool("test_streaming_elicitation", "Asks the user a question: in 2026-07-28, as a multi round-trip result"),
             asks_once("answer", InputRequest::elicit(form("What is your name?", "name")), "elicitation answered"));

  s.add_tool(tool("test_logging_tool", "Logs a message; a 2026-07-28 request sees it only if its _meta asks for a level"),
             [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
               ctx.log("info", "test_logging_tool ran");
               return CallToolResult::text("logged");
             });

  // Unlisted triggers would need a second registry; these are listed, and harmless.
  s.add_tool(tool("test_trigger_tool_change", "Tells every listener that the tool list changed"),
             [&s](const json::object&, RequestContext&) -> Result<CallToolResult> {
               s.availability_changed(ListKind::tools);
               return CallToolResult::text("tools list_changed sent");
             });
  s.add_tool(tool("test_trigger_prompt_change", "Tells every listener that the prompt list changed"),
             [&s](const json::object&, RequestContext&) -> Result<CallToolResult> {
               s.availability_changed(ListKind::prompts);
               return CallToolResult::text("prompts list_changed sent");
             });
}

// One fixture for each way an author may treat a client without what an item needs
// (mcp/server/requirements.hpp): test_missing_capability above is shown with its requirement;
// these are hidden, or replaced by a substitute.
void add_requirement_fixtures(Server& s) {
  const json::object sampling{{"sampling", json::object{}}};
  json::object text_arg{{"type", "object"},
                        {"properties", json::object{{"text", json::object{{"type", "string"}, {"description", "What to work on"}}}}},
                        {"required", json::array{"text"}}};
  s.add_tool(tool("test_ask_model", "Asks the client's model a question; hidden from clients without sampling", text_arg),
             [](const json::object& args, RequestContext& ctx) -> Result<CallToolResult> {
               if (const json::object* answer = ctx.input_response("answer")) return CallToolResult::text("the model says: " + shown(answer));
               const json::value* text = args.if_contains("text");
               return ctx.input_required({{"answer", InputRequest::create_message(question(
                                                         text && text->is_string() ? std::string(text->get_string()) : "Hello?", 100))}});
             });
  s.require_capabilities(ListKind::tools, "test_ask_model",
                         CapabilityRequirement{.capabilities = sampling, .when_missing = CapabilityRequirement::WhenMissing::hide});

  s.add_tool(tool("test_summarize", "Summarizes a text with the client's model", text_arg),
             [](const json::object& args, RequestContext& ctx) -> Result<CallToolResult> {
               if (const json::object* answer = ctx.input_response("summary")) return CallToolResult::text("summary: " + shown(answer));
               const json::value* text = args.if_contains("text");
               return ctx.input_required({{"summary", InputRequest::create_message(question(
                                                          "Summarize: " + (text && text->is_string() ? std::string(text->get_string()) : std::string()), 100))}});
             });
  // What a client without sampling is offered instead: the first sentence, no model needed.
  s.add_tool(tool("test_summarize_without_sampling", "Summarizes a text as its first sentence", text_arg),
             [](const json::object& args, RequestContext&) -> Result<CallToolResult> {
               const json::value* text = args.if_contains("text");
               std::string t = text && text->is_string() ? std::string(text->get_string()) : std::string();
               return CallToolResult::text("summary: " + t.substr(0, t.find('.') == std::string::npos ? t.size() : t.find('.') + 1));
             });
  s.require_capabilities(ListKind::tools, "test_summarize",
                         CapabilityRequirement{.capabilities = sampling,
                                               .when_missing = CapabilityRequirement::WhenMissing::substitute,
                                               .substitute = "test_summarize_without_sampling"});
}

void add_custom_header_tool(Server& s) {
  json::object schema{
      {"type", "object"},
      {"properties",
       json::object{{"region", json::object{{"type", "string"}, {"description", "Where to run"}, {"x-mcp-header", "Region"}}},
                    {"priority", json::object{{"type", "integer"}, {"description", "How urgent"}, {"x-mcp-header", "Priority"}}}}},
      {"required", json::array{"region"}}};
  s.add_tool(tool("test_custom_header", "Mirrors its region argument into the Mcp-Param-Region header", std::move(schema)),
             [](const json::object& args, RequestContext&) -> Result<CallToolResult> {
               const json::value* region = args.if_contains("region");
               return CallToolResult::text("region: " + (region ? json::serialize(*region) : std::string("(none)")));
             });
}

}  // namespace

void add_stateless_fixtures(Server& s) {
  add_input_required_tools(s);
  add_input_required_prompt(s);
  add_server_stateless_tools(s);
  add_requirement_fixtures(s);
  add_custom_header_tool(s);
}

}  // namespace everything
