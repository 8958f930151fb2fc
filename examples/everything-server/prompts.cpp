// Fixture prompts and completion.
#include "fixture.hpp"

namespace everything {

using namespace mcp;

namespace {

Prompt prompt(std::string name, std::string description, std::vector<PromptArgument> args = {}) {
  Prompt p;
  p.name = std::move(name);
  p.description = std::move(description);
  p.arguments = std::move(args);
  return p;
}

PromptArgument required_arg(std::string name, std::string description) {
  PromptArgument a;
  a.name = std::move(name);
  a.description = std::move(description);
  a.required = true;
  return a;
}

PromptMessage user(ContentBlock c) {
  PromptMessage m;
  m.role = Role::user;
  m.content = std::move(c);
  return m;
}

}  // namespace

void add_prompts(Server& s) {
  s.add_prompt(prompt("test_simple_prompt", "A simple prompt without arguments"),
               [](const std::map<std::string, std::string>&, RequestContext&) -> Result<GetPromptResult> {
                 GetPromptResult r;
                 r.messages.push_back(user(TextContent{.text = "This is a simple prompt for testing."}));
                 return r;
               });
  s.add_prompt(prompt("test_prompt_with_arguments", "A prompt with two required arguments",
                      {required_arg("arg1", "First test argument"), required_arg("arg2", "Second test argument")}),
               [](const std::map<std::string, std::string>& a, RequestContext&) -> Result<GetPromptResult> {
                 GetPromptResult r;
                 r.messages.push_back(user(TextContent{
                     .text = "Prompt with arguments: arg1='" + a.at("arg1") + "', arg2='" + a.at("arg2") + "'"}));
                 return r;
               });
  s.add_prompt(prompt("test_prompt_with_embedded_resource", "A prompt that embeds a resource",
                      {required_arg("resourceUri", "URI of the resource to embed")}),
               [](const std::map<std::string, std::string>& a, RequestContext&) -> Result<GetPromptResult> {
                 GetPromptResult r;
                 r.messages.push_back(user(EmbeddedResource{.resource = TextResourceContents{
                                                                .uri = a.at("resourceUri"),
                                                                .mime_type = "text/plain",
                                                                .text = "Embedded resource content for testing."}}));
                 r.messages.push_back(user(TextContent{.text = "Please process the embedded resource above."}));
                 return r;
               });
  s.add_prompt(prompt("test_prompt_with_image", "A prompt that contains an image"),
               [](const std::map<std::string, std::string>&, RequestContext&) -> Result<GetPromptResult> {
                 GetPromptResult r;
                 r.messages.push_back(user(ImageContent{.data = kPng, .mime_type = "image/png"}));
                 r.messages.push_back(user(TextContent{.text = "Please analyze the image above."}));
                 return r;
               });
}

void add_completion(Server& s) {
  // Suggests values that start with what was typed, from a small fixed vocabulary per argument.
  s.set_completer([](const CompleteRequestParams& req, RequestContext&) -> Result<CompleteResult> {
    static const std::map<std::string, std::vector<std::string>> vocabulary = {
        {"arg1", {"test", "testing", "tested", "value1"}},
        {"arg2", {"test", "value2"}},
        {"id", {"1", "123", "42"}},
        {"resourceUri", {"test://static-text", "test://static-binary"}},
    };
    CompleteResult r;
    if (auto it = vocabulary.find(req.argument.name); it != vocabulary.end()) {
      for (const auto& v : it->second) {
        if (v.rfind(req.argument.value, 0) == 0) r.completion.values.push_back(v);
      }
    }
    r.completion.total = static_cast<std::int64_t>(r.completion.values.size());
    r.completion.has_more = false;
    return r;
  });
}

}  // namespace everything
