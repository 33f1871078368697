#include "engines/endpoint_commands.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "core/format.h"
#include "protocol/resp_encoder.h"

namespace dfbench::engines {
namespace {

// The values the placeholders get for the check: a key inside the run's namespace, and a value
// that a command reading a number (a count, a TTL) takes too.
constexpr const char* kSampleKeySuffix = "check-1";
constexpr const char* kSampleData = "1";
// The setup option that lets the run send any command: its data is the run's own. Errors name it
// by field, and cli by its flag.
constexpr const char* kAllowFlush = "allow_flush";

// `text` with every `placeholder` replaced by `value`.
std::string Filled(std::string text, const std::string& placeholder, const std::string& value) {
  for (size_t at = text.find(placeholder); at != std::string::npos;
       at = text.find(placeholder, at + value.size())) {
    text.replace(at, placeholder.size(), value);
  }
  return text;
}

// What COMMAND INFO says of a command: its flags and ACL categories, and whether it may name
// keys (a first key, or keys found by parsing its arguments).
struct CommandFacts {
  std::vector<std::string> marks;  // flags, then "@category"s
  bool names_keys = false;
  // Where the keys are among the arguments (the command's name at 0); last < 0 counts from the
  // end. Only where the keys are not found by parsing the arguments (`movablekeys`).
  int64_t first_key = 0;
  int64_t last_key = 0;
  int64_t key_step = 0;

  bool Has(const std::string& mark) const {
    return std::find(marks.begin(), marks.end(), mark) != marks.end();
  }
};

CommandFacts FactsOf(const protocol::Reply& entry) {
  CommandFacts facts;
  const auto& e = entry.elements;
  auto add_all = [&](size_t i) {
    if (i >= e.size()) return;
    for (const auto& mark : e[i].elements) {
      std::string m = mark.str;
      std::transform(m.begin(), m.end(), m.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      facts.marks.push_back(std::move(m));
    }
  };
  add_all(2);  // flags
  add_all(6);  // ACL categories (Redis 6 and later)
  if (e.size() > 5) {
    facts.first_key = e[3].integer;
    facts.last_key = e[4].integer;
    facts.key_step = e[5].integer;
  }
  facts.names_keys = facts.first_key != 0 || facts.Has("movablekeys");
  return facts;
}

// The keys at the positions COMMAND INFO gives, for a server without COMMAND GETKEYS (Dragonfly);
// nullopt when they are found by parsing the arguments instead.
std::optional<std::vector<std::string>> KeysAtPositions(const CommandFacts& facts,
                                                        const std::vector<std::string>& args) {
  if (facts.Has("movablekeys") || facts.first_key <= 0 || facts.key_step <= 0) return std::nullopt;
  const auto count = static_cast<int64_t>(args.size());
  const int64_t last = facts.last_key < 0 ? count + facts.last_key : facts.last_key;
  std::vector<std::string> keys;
  for (int64_t i = facts.first_key; i <= last && i < count; i += facts.key_step) {
    keys.push_back(args[static_cast<size_t>(i)]);
  }
  return keys;
}

// The first of `marks` that makes a keyless command act on the server's data, "" when none.
std::string KeylessHarm(const CommandFacts& facts) {
  for (const char* mark : {"write", "admin", "noscript", "@dangerous"}) {
    if (facts.Has(mark)) return mark;
  }
  return "";
}

// Whether the COMMAND DOCS arguments `args` (each a list of field, value) hold a database
// ("db", "destination-db"), nested blocks included.
bool NamesDatabase(const protocol::Reply& args) {
  for (const auto& arg : args.elements) {
    const auto& fields = arg.elements;
    for (size_t i = 0; i + 1 < fields.size(); i += 2) {
      const std::string& field = fields[i].str;
      const std::string& value = fields[i + 1].str;
      if (field == "name" && (value == "db" || value.ends_with("-db"))) return true;
      if (field == "arguments" && NamesDatabase(fields[i + 1])) return true;
    }
  }
  return false;
}

class CommandJudge {
 public:
  CommandJudge(std::string engine, const protocol::ServerEndpoint& endpoint,
               std::string key_namespace, protocol::BlockingClient& client)
      : engine_(std::move(engine)),
        where_(endpoint.address + ":" + std::to_string(endpoint.port)),
        key_namespace_(std::move(key_namespace)),
        client_(client) {}

  core::Status Judge(const SentCommand& command) {
    auto split = protocol::SplitCommandLine(command.tmpl);
    if (!split) return tl::unexpected(split.error());
    if (split->empty()) return core::Ok();
    std::vector<std::string> args;
    args.reserve(split->size());
    for (const auto& arg : *split) {
      args.push_back(Filled(Filled(arg, "__key__", key_namespace_ + kSampleKeySuffix), "__data__",
                            kSampleData));
    }
    command_ = command;
    auto entry = EntryOf(args);
    if (!entry) return tl::unexpected(entry.error());
    if (!*entry) return core::Ok();  // dfbench's own, on a server that cannot say
    const CommandFacts facts = FactsOf(**entry);
    if (facts.Has("@scripting")) {
      return Refuse(
          "it runs or manages server-side scripts (@scripting), which reach keys no "
          "argument names");
    }
    std::vector<std::string> keys;
    if (facts.names_keys) {
      auto listed = KeysOf(args, facts);
      if (!listed) return tl::unexpected(listed.error());
      if (!*listed) return core::Ok();
      keys = std::move(**listed);
    }
    for (const auto& key : keys) {
      if (key.rfind(key_namespace_, 0) != 0) {
        return Refuse(core::Format("it names the key \"{}\", outside the run's keys (\"{}...\")",
                                   key, key_namespace_));
      }
    }
    if (!keys.empty() && !command.own && TakesDatabase((*entry)->elements[0].str)) {
      return Refuse("it takes a database, where a key of the run goes out of the cleanup's reach");
    }
    if (keys.empty()) {
      if (const std::string harm = KeylessHarm(facts); !harm.empty()) {
        return Refuse(
            core::Format("it names no key of the run and COMMAND INFO marks it {}, so "
                         "it acts on data that is not the run's",
                         harm));
      }
    }
    return core::Ok();
  }

 private:
  // The COMMAND INFO entry of args[0], or of its subcommand args[0]|args[1] where the server
  // has one. nullopt for dfbench's own command on a server that cannot say; an error when a
  // template of the user's cannot be judged.
  core::Result<std::optional<protocol::Reply>> EntryOf(const std::vector<std::string>& args) {
    std::vector<std::string> ask = {"COMMAND", "INFO", args[0]};
    if (args.size() > 1) ask.push_back(args[0] + "|" + args[1]);
    auto reply = client_.Command(ask);
    if (!reply) return tl::unexpected(reply.error());
    if (reply->is_error() || reply->elements.size() != ask.size() - 2) {
      return Unjudged("COMMAND INFO answered " +
                      (reply->is_error() ? reply->str : std::string("an unknown shape")));
    }
    for (size_t i = reply->elements.size(); i-- > 0;) {
      if (!reply->elements[i].is_null()) return std::move(reply->elements[i]);
    }
    return Unjudged("the server does not know " + args[0]);
  }

  // The keys COMMAND GETKEYS finds in `args`; where it answers an error, those at the positions
  // COMMAND INFO gives, when it gives them. nullopt, as EntryOf.
  core::Result<std::optional<std::vector<std::string>>> KeysOf(const std::vector<std::string>& args,
                                                               const CommandFacts& facts) {
    std::vector<std::string> ask = {"COMMAND", "GETKEYS"};
    ask.insert(ask.end(), args.begin(), args.end());
    auto reply = client_.Command(ask);
    if (!reply) return tl::unexpected(reply.error());
    if (reply->is_error()) {
      if (auto keys = KeysAtPositions(facts, args)) return keys;
      return Unjudged("COMMAND GETKEYS answered " + reply->str +
                      ", and its keys are not at fixed positions");
    }
    std::vector<std::string> keys;
    keys.reserve(reply->elements.size());
    for (auto& key : reply->elements) keys.push_back(std::move(key.str));
    return keys;
  }

  // Whether COMMAND DOCS lists a database among the arguments of `name` (MOVE, COPY ... DB);
  // false where the server has no COMMAND DOCS (before Redis 7, Dragonfly).
  bool TakesDatabase(const std::string& name) {
    auto reply = client_.Command({"COMMAND", "DOCS", name});
    if (!reply || reply->is_error() || reply->elements.size() < 2) return false;
    const auto& docs = reply->elements[1].elements;
    for (size_t i = 0; i + 1 < docs.size(); i += 2) {
      if (docs[i].str == "arguments") return NamesDatabase(docs[i + 1]);
    }
    return false;
  }

  // A template of the user's is refused when the server cannot judge it; dfbench's own goes.
  core::Result<std::nullopt_t> Unjudged(const std::string& why) {
    if (command_.own) return std::nullopt;
    const std::string said = core::Format("\"{}\" cannot be checked against {} at {}: {}",
                                          command_.tmpl, engine_, where_, why);
    return core::FailAbout(core::ErrorKind::kUsage, {kAllowFlush},
                           core::LiteralWording(said) +
                               "; a command dfbench cannot check is sent only by a setup made "
                               "with {0} (its data the run's own)");
  }

  core::Status Refuse(const std::string& why) {
    const std::string said =
        core::Format("\"{}\" is refused on {} at {}, a server the run shares: {}", command_.tmpl,
                     engine_, where_, why);
    return core::FailAbout(core::ErrorKind::kUsage, {kAllowFlush},
                           core::LiteralWording(said) +
                               "; only a setup made with {0} (its data the run's own) sends it");
  }

  std::string engine_;
  std::string where_;
  std::string key_namespace_;
  protocol::BlockingClient& client_;
  SentCommand command_;
};

}  // namespace

core::Status CheckSentCommands(const std::string& engine, const protocol::ServerEndpoint& endpoint,
                               const std::string& key_namespace,
                               const std::vector<SentCommand>& commands) {
  auto client = protocol::ConnectTo(endpoint, std::chrono::seconds(10));
  if (!client) return tl::unexpected(core::WithContext(client.error(), engine));
  CommandJudge judge(engine, endpoint, key_namespace, *client);
  for (const auto& command : commands) {
    if (auto st = judge.Judge(command); !st) return st;
  }
  return core::Ok();
}

}  // namespace dfbench::engines
