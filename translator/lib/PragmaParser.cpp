//===- PragmaParser.cpp - Parse the text of a css pragma -------------------===//
#include "PragmaParser.h"

#include <array>
#include <cctype>
#include <vector>

namespace gpuss {

const char *directiveName(DirectiveKind K) {
  switch (K) {
  case DirectiveKind::Task:
    return "task";
  case DirectiveKind::Target:
    return "target";
  case DirectiveKind::Barrier:
    return "barrier";
  case DirectiveKind::Wait:
    return "wait";
  case DirectiveKind::Start:
    return "start";
  case DirectiveKind::Finish:
    return "finish";
  case DirectiveKind::Critical:
    return "critical";
  case DirectiveKind::Region:
    return "region";
  }
  return "?";
}

const char *dialectName(PragmaDialect D) {
  return D == PragmaDialect::Omp ? "omp" : "css";
}

const char *clauseName(ClauseKind K) {
  switch (K) {
  case ClauseKind::Input:
    return "input";
  case ClauseKind::Output:
    return "output";
  case ClauseKind::Inout:
    return "inout";
  case ClauseKind::HighPriority:
    return "highpriority";
  case ClauseKind::Priority:
    return "priority";
  case ClauseKind::Final:
    return "final";
  case ClauseKind::If:
    return "if";
  case ClauseKind::Label:
    return "label";
  case ClauseKind::Device:
    return "device";
  case ClauseKind::CopyIn:
    return "copy_in";
  case ClauseKind::CopyOut:
    return "copy_out";
  case ClauseKind::CopyInout:
    return "copy_inout";
  case ClauseKind::On:
    return "on";
  }
  return "?";
}

namespace {

struct Token {
  enum Kind { Ident, Number, Literal, Punct, End };
  Kind K = End;
  std::string_view Text;
  unsigned Offset = 0;
  bool is(std::string_view P) const { return (K == Punct || K == Ident) && Text == P; }
};

/// Identifiers as C compilers take them: letters, digits, '_', '$' (a GNU
/// extension) and any byte of a UTF-8 sequence (C99/C++ extended
/// characters: `σ`, `Δt`); Clang says whether the name is valid.
bool isIdentStart(char C) {
  return std::isalpha(static_cast<unsigned char>(C)) || C == '_' || C == '$' ||
         static_cast<unsigned char>(C) >= 0x80;
}
bool isIdentChar(char C) {
  return isIdentStart(C) || std::isdigit(static_cast<unsigned char>(C));
}

/// Splits the text into tokens; never fails (unknown characters are Punct).
std::vector<Token> lex(std::string_view S) {
  std::vector<Token> Tokens;
  size_t I = 0;
  while (I < S.size()) {
    char C = S[I];
    if (std::isspace(static_cast<unsigned char>(C))) {
      ++I;
      continue;
    }
    size_t Start = I;
    Token T;
    if (isIdentStart(C)) {
      while (I < S.size() && isIdentChar(S[I]))
        ++I;
      T.K = Token::Ident;
    } else if (std::isdigit(static_cast<unsigned char>(C)) ||
               (C == '.' && I + 1 < S.size() && std::isdigit(static_cast<unsigned char>(S[I + 1])))) {
      // pp-number: digits, letters, dots, and signs after an exponent.
      ++I;
      // A pp-number stops before '..' (SMPSs ranges: {0..n-1}).
      while (I < S.size() && (isIdentChar(S[I]) || (S[I] == '.' && !(I + 1 < S.size() && S[I + 1] == '.')) ||
                              ((S[I] == '+' || S[I] == '-') &&
                               (S[I - 1] == 'e' || S[I - 1] == 'E' || S[I - 1] == 'p' || S[I - 1] == 'P'))))
        ++I;
      T.K = Token::Number;
    } else if (C == '"' || C == '\'') {
      ++I;
      while (I < S.size() && S[I] != C) {
        if (S[I] == '\\' && I + 1 < S.size()) ++I;
        ++I;
      }
      if (I < S.size()) ++I;
      T.K = Token::Literal;
    } else {
      static constexpr std::array<std::string_view, 5> TwoChar = {"::", "->", "<<", ">>", ".."};
      T.K = Token::Punct;
      I += 1;
      for (std::string_view P : TwoChar)
        if (S.substr(Start, 2) == P) {
          I = Start + 2;
          break;
        }
    }
    T.Text = S.substr(Start, I - Start);
    T.Offset = static_cast<unsigned>(Start);
    Tokens.push_back(T);
  }
  Token EndTok;
  EndTok.K = Token::End;
  EndTok.Offset = static_cast<unsigned>(S.size());
  Tokens.push_back(EndTok);
  return Tokens;
}

bool isKeyword(std::string_view W) {
  static constexpr std::array<std::string_view, 36> Keywords = {
      "sizeof",     "alignof",  "_Alignof",   "char",     "short",       "int",
      "long",       "float",    "double",     "signed",   "unsigned",    "void",
      "const",      "volatile", "struct",     "union",    "enum",        "bool",
      "_Bool",      "true",     "false",      "nullptr",  "static_cast", "reinterpret_cast",
      "const_cast", "typeof",   "__typeof__", "decltype", "this",        "wchar_t",
      "char16_t",   "char32_t", "char8_t",    "__int128", "NULL",        "auto"};
  for (std::string_view K : Keywords)
    if (K == W) return true;
  return false;
}

/// Clauses of OmpSs, OpenMP and StarSs task directives that GPUSs does not
/// implement: each is refused with why, and what to write instead.
struct UnsupportedClause {
  std::string_view Name;
  std::string_view Advice;
};

constexpr std::string_view InoutInstead =
    "GPUSs orders every two tasks that write the same data; name the data in inout(...) instead (the tasks "
    "then run one after another, in program order)";
constexpr std::string_view WeakInstead =
    "GPUSs has no weak accesses: a child task works within its parent's data, which the parent's clauses "
    "name in full; name the data in input, output or inout";

constexpr std::array<UnsupportedClause, 13> UnsupportedClauses = {{
    {"reduction",
     "GPUSs has no task reductions; name the reduced variable in inout(...) (the tasks that update it then "
     "run one after another), or let each task write a partial result of its own and combine them after a "
     "barrier"},
    {"in_reduction", "GPUSs has no task reductions; name the reduced variable in inout(...)"},
    {"task_reduction", "GPUSs has no task reductions; name the reduced variable in inout(...)"},
    {"concurrent", InoutInstead},
    {"commutative", InoutInstead},
    {"mutexinoutset", InoutInstead},
    {"weakin", WeakInstead},
    {"weakout", WeakInstead},
    {"weakinout", WeakInstead},
    {"weakconcurrent", WeakInstead},
    {"weakcommutative", WeakInstead},
    {"onready", "GPUSs has no task callbacks; remove the clause"},
    {"cost", "GPUSs learns each task function's durations as it runs; remove the clause"},
}};

class Parser {
public:
  Parser(std::string_view Text, PragmaDialect Dialect) : Text(Text), Dialect(Dialect), Tokens(lex(Text)) {}

  ParseResult run() {
    ParseResult Result;
    Directive D;
    if (parseDirective(D))
      Result.Parsed = std::move(D);
    else
      Result.Error = Error;
    return Result;
  }

private:
  std::string_view Text;
  PragmaDialect Dialect;
  std::vector<Token> Tokens;
  size_t Pos = 0;
  ParseError Error;

  const Token &peek(size_t Ahead = 0) const {
    size_t I = Pos + Ahead;
    return I < Tokens.size() ? Tokens[I] : Tokens.back();
  }
  const Token &next() {
    const Token &T = peek();
    if (Pos + 1 < Tokens.size()) ++Pos;
    return T;
  }
  bool fail(unsigned Offset, std::string Message) {
    Error.Offset = Offset;
    Error.Message = std::move(Message);
    return false;
  }
  static std::string quoted(const Token &T) {
    if (T.K == Token::End) return "the end of the directive";
    return "'" + std::string(T.Text) + "'";
  }

  bool parseDirective(Directive &D) {
    const Token &Name = next();
    D.Offset = Name.Offset;
    if (Name.K != Token::Ident)
      return fail(Name.Offset,
                  "expected a directive (task, target, barrier, taskwait, wait, start or finish) "
                  "after '" +
                      std::string(dialectName(Dialect)) + "', found " + quoted(Name));
    if (Dialect == PragmaDialect::Omp && !isReadOmpDirective(Name.Text, peek().Text))
      return fail(Name.Offset, "'#pragma omp " + std::string(Name.Text) + "' is not read by GPUSs");
    if (Dialect == PragmaDialect::Omp && Name.Text != "task" && Name.Text != "target" &&
        Name.Text != "taskwait" && Name.Text != "barrier")
      return parseOmpConstruct(D, Name);
    if (Name.Text == "task") {
      D.Kind = DirectiveKind::Task;
      if (!parseTask(D.Task)) return false;
      if (Dialect == PragmaDialect::Omp)
        for (Clause &C : D.Task.Clauses)
          for (Item &It : C.Items)
            subscriptsAsElements(It);
      return true;
    }
    if (Name.Text == "target") {
      D.Kind = DirectiveKind::Target;
      return parseTarget(D.Target, Name.Offset, /*Embedded=*/false);
    }
    if (Name.Text == "taskwait" && peek().is("depend")) {
      // OpenMP 5: `taskwait depend(in: x)` waits for the writers of x, as
      // `taskwait on(x)`.
      D.Kind = DirectiveKind::Wait;
      next();
      Clause C;
      if (!parseDepend(C)) return false;
      D.Wait.Items = std::move(C.Items);
      return expectEnd("taskwait depend(...)");
    }
    if (Name.Text == "wait" || (Name.Text == "taskwait" && peek().is("on"))) {
      D.Kind = DirectiveKind::Wait;
      std::string Spelled = std::string(Name.Text) + " on(...)";
      const Token &On = next();
      if (!On.is("on")) return fail(On.Offset, "expected 'on(...)' after 'wait', found " + quoted(On));
      Clause C;
      C.Kind = ClauseKind::On;
      C.Offset = On.Offset;
      if (!parseList(C, "on")) return false;
      D.Wait.Items = std::move(C.Items);
      if (Dialect == PragmaDialect::Omp)
        for (Item &It : D.Wait.Items)
          subscriptsAsElements(It);
      return expectEnd(Spelled);
    }
    if (Name.Text == "barrier" || Name.Text == "taskwait" || Name.Text == "start" || Name.Text == "finish") {
      D.Kind = Name.Text == "barrier" || Name.Text == "taskwait" ? DirectiveKind::Barrier
               : Name.Text == "start"                            ? DirectiveKind::Start
                                                                 : DirectiveKind::Finish;
      // OmpSs: `taskwait noflush` (the data stays where the tasks left it);
      // GPUSs brings it home, which is what the program reads anyway.
      if (Name.Text == "taskwait" && peek().is("noflush")) next();
      return expectEnd(Name.Text);
    }
    return fail(Name.Offset, "unknown directive '" + std::string(Name.Text) +
                                 "' (expected task, target, barrier, taskwait, wait, start or finish)");
  }

  /// `critical [(name)] [hint(e)]`, `atomic [clauses]`, and the constructs
  /// whose end is a barrier: `parallel ...`, `single`, `for`, `sections`,
  /// `scope`, `taskgroup`, `taskloop` with their clauses, of which only
  /// `nowait` (and taskloop's `nogroup`) matter here.
  bool parseOmpConstruct(Directive &D, const Token &Name) {
    D.Omp.Spelled = std::string(Name.Text);
    if (Name.Text == "critical") {
      D.Kind = DirectiveKind::Critical;
      if (peek().is("(")) {
        next();
        const Token &Id = next();
        if (Id.K != Token::Ident)
          return fail(Id.Offset,
                      "expected the critical section's name in 'critical(...)', found " + quoted(Id));
        const Token &Close = next();
        if (!Close.is(")")) return fail(Close.Offset, "expected ')' after the name, found " + quoted(Close));
        D.Omp.LockName = std::string(Id.Text);
      }
      if (peek().is("hint")) skipClause();
      return expectEnd("critical");
    }
    if (Name.Text == "atomic") {
      // read, write, update, capture, compare, seq_cst, ...: one lock
      // serves every form, the statement after is what it guards.
      D.Kind = DirectiveKind::Critical;
      D.Omp.LockName = "<atomic>";
      Pos = Tokens.size() - 1;
      return true;
    }
    D.Kind = DirectiveKind::Region;
    // `master` and `masked` end without a barrier, unless a taskloop (its
    // implicit taskgroup) comes with them.
    D.Omp.WaitsAtEnd = Name.Text != "master" && Name.Text != "masked";
    while (peek().K != Token::End) {
      const Token &T = next();
      if (T.K == Token::Ident && D.Omp.Spelled.find(' ') == std::string::npos && !peek().is("(") &&
          (T.Text == "for" || T.Text == "sections" || T.Text == "single" || T.Text == "masked" ||
           T.Text == "master" || T.Text == "loop" || T.Text == "simd" || T.Text == "taskloop")) {
        D.Omp.Spelled += " " + std::string(T.Text);
        if (T.Text == "taskloop") D.Omp.WaitsAtEnd = true;
      } else if (T.is("nowait") || T.is("nogroup"))
        D.Omp.WaitsAtEnd = D.Omp.Spelled.rfind("parallel", 0) == 0; // a parallel region ends in a barrier
      else if (T.K == Token::Ident && peek().is("("))
        skipParens();
    }
    return true;
  }

  /// `(a, b, ...)` after shared, firstprivate or private: variable names.
  bool parseSharedNames(const Token &Clause, std::vector<SharedName> &Names) {
    const Token &Open = next();
    if (!Open.is("("))
      return fail(Open.Offset,
                  "expected '(' after '" + std::string(Clause.Text) + "', found " + quoted(Open));
    for (;;) {
      const Token &Var = next();
      if (Var.K != Token::Ident)
        return fail(Var.Offset, "expected a variable name in '" + std::string(Clause.Text) +
                                    "(...)', found " + quoted(Var));
      Names.push_back({std::string(Var.Text), Var.Offset});
      const Token &After = next();
      if (After.is(")")) return true;
      if (!After.is(","))
        return fail(After.Offset,
                    "expected ',' or ')' in '" + std::string(Clause.Text) + "(...)', found " + quoted(After));
    }
  }
  static void noteSharing(DataSharing &Sharing, const Token &Clause) {
    if (Sharing.any()) return;
    Sharing.FirstClause = std::string(Clause.Text);
    Sharing.FirstOffset = Clause.Offset;
  }

  void skipClause() {
    next();
    if (peek().is("(")) skipParens();
  }
  /// Past the balanced `( ... )` that starts at the current token.
  void skipParens() {
    int Depth = 0;
    do {
      const Token &T = next();
      if (T.is("(")) ++Depth;
      if (T.is(")")) --Depth;
      if (T.K == Token::End) return;
    } while (Depth > 0);
  }

  bool expectEnd(std::string_view After) {
    const Token &T = peek();
    if (T.K != Token::End)
      return fail(T.Offset, "unexpected " + quoted(T) + " after '" + std::string(After) + "'");
    return true;
  }

  bool parseTask(TaskDirective &Task) {
    while (peek().K != Token::End) {
      const Token &Name = next();
      if (Name.K != Token::Ident)
        return fail(Name.Offset,
                    "expected a clause (input, output, inout, highpriority, priority, final, label "
                    "or target), found " +
                        quoted(Name));
      Clause C;
      C.Offset = Name.Offset;
      if (Name.Text == "input" || Name.Text == "in")
        C.Kind = ClauseKind::Input;
      else if (Name.Text == "output" || Name.Text == "out")
        C.Kind = ClauseKind::Output;
      else if (Name.Text == "inout")
        C.Kind = ClauseKind::Inout;
      else if (Name.Text == "highpriority") {
        Task.HighPriority = true;
        C.Kind = ClauseKind::HighPriority;
        Task.Clauses.push_back(std::move(C));
        continue;
      } else if (Name.Text == "priority" || Name.Text == "final" || Name.Text == "if") {
        // A C expression evaluated at the call.
        C.Kind = Name.Text == "priority" ? ClauseKind::Priority
                 : Name.Text == "final"  ? ClauseKind::Final
                                         : ClauseKind::If;
        bool &Has = C.Kind == ClauseKind::Priority ? Task.HasPriority
                    : C.Kind == ClauseKind::Final  ? Task.HasFinal
                                                   : Task.HasIf;
        ExprText &E = C.Kind == ClauseKind::Priority ? Task.Priority
                      : C.Kind == ClauseKind::Final  ? Task.Final
                                                     : Task.If;
        if (Has) return fail(Name.Offset, "more than one " + std::string(Name.Text) + " clause; keep one");
        const Token &Open = next();
        if (!Open.is("("))
          return fail(Open.Offset,
                      "expected '(' after '" + std::string(Name.Text) + "', found " + quoted(Open));
        char Stop = 0;
        if (!parseExpr(E, Open.Offset, '(', ')', "", Stop)) return false;
        Has = true;
        Task.Clauses.push_back(std::move(C));
        continue;
      } else if (Name.Text == "shared" || Name.Text == "firstprivate" || Name.Text == "private") {
        if (!parseSharedNames(Name, Name.Text == "shared"         ? Task.Sharing.Shared
                                    : Name.Text == "firstprivate" ? Task.Sharing.FirstPrivate
                                                                  : Task.Sharing.Private))
          return false;
        noteSharing(Task.Sharing, Name);
        continue;
      } else if (Name.Text == "default") {
        const Token &Open = next();
        const Token &Kind = next();
        if (!Open.is("(") ||
            !(Kind.is("shared") || Kind.is("none") || Kind.is("firstprivate") || Kind.is("private")))
          return fail(Kind.Offset, "expected 'default(shared)', 'default(none)', 'default(firstprivate)' or "
                                   "'default(private)'");
        if (!next().is(")"))
          return fail(Kind.Offset, "expected ')' after 'default(" + std::string(Kind.Text));
        Task.Sharing.DefaultShared = Kind.is("shared");
        Task.Sharing.DefaultNone = Kind.is("none");
        noteSharing(Task.Sharing, Name);
        continue;
      } else if (Name.Text == "untied" || Name.Text == "tied" || Name.Text == "mergeable") {
        // Permissions a GPUSs task needs not use: it runs to its end on one
        // worker, and is never merged.
        continue;
      } else if (Name.Text == "label") {
        if (!Task.Label.empty()) return fail(Name.Offset, "more than one label clause; keep one");
        if (!parseLabel(Task.Label)) return false;
        C.Kind = ClauseKind::Label;
        Task.Clauses.push_back(std::move(C));
        continue;
      } else if (Name.Text == "depend") {
        if (!parseDepend(C)) return false;
        Task.Clauses.push_back(std::move(C));
        continue;
      } else if (Name.Text == "target") {
        if (Task.HasTarget) return fail(Name.Offset, "more than one target in a task directive; keep one");
        Task.HasTarget = true;
        Task.TargetOffset = Name.Offset;
        if (!parseTarget(Task.Target, Name.Offset, /*Embedded=*/true)) return false;
        continue;
      } else {
        for (const UnsupportedClause &U : UnsupportedClauses)
          if (Name.Text == U.Name)
            return fail(Name.Offset, "clause '" + std::string(Name.Text) +
                                         "' is not supported by GPUSs: " + std::string(U.Advice));
        if (Name.Text == "device" || Name.Text == "copy_in" || Name.Text == "copy_out" ||
            Name.Text == "copy_inout")
          return fail(Name.Offset, "'" + std::string(Name.Text) +
                                       "' belongs to a target: write 'target device(...)' before it");
        return fail(Name.Offset, "unknown clause '" + std::string(Name.Text) +
                                     "' in a task directive (expected input, output, inout, highpriority, "
                                     "priority, final, if, label or target)");
      }
      if (!parseList(C, Name.Text)) return false;
      Task.Clauses.push_back(std::move(C));
    }
    return true;
  }

  /// `label(name)` or `label("name")`.
  bool parseLabel(std::string &Label) {
    const Token &Open = next();
    if (!Open.is("(")) return fail(Open.Offset, "expected '(' after 'label', found " + quoted(Open));
    const Token &Name = next();
    if (Name.K == Token::Ident) {
      Label = std::string(Name.Text);
    } else if (Name.K == Token::Literal && Name.Text.size() >= 2 && Name.Text.front() == '"' &&
               Name.Text.back() == '"') {
      Label = std::string(Name.Text.substr(1, Name.Text.size() - 2));
    } else if (Name.is(")")) {
      return fail(Name.Offset, "empty list in 'label': give the task's name");
    } else {
      return fail(Name.Offset, "expected a name in 'label', found " + quoted(Name));
    }
    if (Label.empty()) return fail(Name.Offset, "empty label");
    const Token &Close = next();
    if (Close.K == Token::End)
      return fail(Open.Offset, "unbalanced brackets: '(' of 'label' is never closed");
    if (!Close.is(")")) return fail(Close.Offset, "expected ')' after the label, found " + quoted(Close));
    return true;
  }

  /// The clauses of a target directive; embedded in a task directive, it
  /// ends at the first clause that is not a target's.
  bool parseTarget(TargetDirective &Target, unsigned DirectiveOffset, bool Embedded) {
    bool SawDevice = false;
    while (peek().K != Token::End) {
      const Token &Name = peek();
      if (Name.K != Token::Ident) {
        if (Embedded) break;
        return fail(Name.Offset,
                    "expected a clause (device, copy_in, copy_out or copy_inout), found " + quoted(Name));
      }
      if (Name.Text == "device") {
        next();
        if (SawDevice) return fail(Name.Offset, "more than one device clause; keep one");
        SawDevice = true;
        const Token &Open = next();
        if (!Open.is("(")) return fail(Open.Offset, "expected '(' after 'device', found " + quoted(Open));
        const Token &Dev = next();
        if (Dev.is("cuda"))
          Target.Device = DeviceKind::Cuda;
        else if (Dev.is("smp"))
          Target.Device = DeviceKind::Smp;
        else if (Dev.K == Token::End || Dev.is(")"))
          return fail(Dev.Offset, "empty list in 'device': expected cuda or smp");
        else
          return fail(Dev.Offset, "unknown device " + quoted(Dev) + " (expected cuda or smp)");
        const Token &Close = next();
        if (Close.K == Token::End)
          return fail(Close.Offset,
                      "unbalanced brackets: missing ')' after 'device(" + std::string(Dev.Text) + "'");
        if (!Close.is(")"))
          return fail(Close.Offset, "expected ')' after the device name, found " + quoted(Close));
        continue;
      }
      if (Name.Text == "copy_deps") {
        // OmpSs: copy the task's dependences to the device, which GPUSs
        // always does.
        next();
        continue;
      }
      if (Name.Text == "no_copy_deps" || Name.Text == "implements" || Name.Text == "ndrange" ||
          Name.Text == "shmem")
        return fail(Name.Offset,
                    "clause '" + std::string(Name.Text) + "' of an OmpSs target is not supported by GPUSs: " +
                        (Name.Text == "no_copy_deps"
                             ? "a task's data always reaches it through its cache; remove the clause"
                         : Name.Text == "implements"
                             ? "one task function has one body per device; write the task once, with "
                               "target device(cuda) for a CUDA body"
                             : "a CUDA task is a host function that launches its kernels on "
                               "css_cuda_stream(); launch the kernel in the task's body"));
      Clause C;
      C.Offset = Name.Offset;
      if (Name.Text == "copy_in")
        C.Kind = ClauseKind::CopyIn;
      else if (Name.Text == "copy_out")
        C.Kind = ClauseKind::CopyOut;
      else if (Name.Text == "copy_inout")
        C.Kind = ClauseKind::CopyInout;
      else if (Embedded)
        break;
      else
        return fail(Name.Offset,
                    "unknown clause '" + std::string(Name.Text) +
                        "' in a target directive (expected device, copy_deps, copy_in, copy_out or "
                        "copy_inout)");
      next();
      if (!parseList(C, Name.Text)) return false;
      Target.Copies.push_back(std::move(C));
    }
    if (!SawDevice) return fail(DirectiveOffset, "a target directive needs device(cuda) or device(smp)");
    return true;
  }

  /// In OpenMP's `depend(...)` and in every clause of `#pragma omp`, a
  /// subscript is C's: `x[k]` is element k (`x[k;1]`), where StarSs' `css`
  /// clauses read it as k elements from x[0]. After a shape, `[k]` is an
  /// element already; `*p[i]` subscripts are C's already too.
  static void subscriptsAsElements(Item &It) {
    if (!It.Shape.empty() || It.Deref) return;
    for (Dimension &Dim : It.Dims)
      if (Dim.K == Dimension::Extent) {
        Dim.K = Dimension::Length;
        Dim.Second.Text = "1";
        Dim.Second.Offset = Dim.First.Offset;
      }
  }

  /// OpenMP's and OmpSs' `depend(in: ...)`, `depend(out: ...)`,
  /// `depend(inout: ...)`: input, output and inout.
  bool parseDepend(Clause &C) {
    const Token &Open = next();
    if (!Open.is("(")) return fail(Open.Offset, "expected '(' after 'depend', found " + quoted(Open));
    const Token &Type = next();
    if (Type.is("in"))
      C.Kind = ClauseKind::Input;
    else if (Type.is("out"))
      C.Kind = ClauseKind::Output;
    else if (Type.is("inout"))
      C.Kind = ClauseKind::Inout;
    else if (Type.is("mutexinoutset") || Type.is("inoutset") || Type.is("commutative") ||
             Type.is("concurrent"))
      return fail(Type.Offset, "dependence type '" + std::string(Type.Text) +
                                   "' is not supported by GPUSs: " + std::string(InoutInstead) +
                                   "; write depend(inout: ...)");
    else
      return fail(Type.Offset, "expected in, out or inout after 'depend(', found " + quoted(Type));
    std::string Spelled = "depend(" + std::string(Type.Text) + ":";
    const Token &Colon = next();
    if (!Colon.is(":"))
      return fail(Colon.Offset, "expected ':' after '" + Spelled.substr(0, Spelled.size() - 1) + "', found " +
                                    quoted(Colon));
    if (!parseItems(C, Spelled, Open)) return false;
    for (Item &It : C.Items)
      subscriptsAsElements(It);
    // `x[a:b]` is elements a to b in OmpSs and b elements from a in OpenMP:
    // in an OpenMP clause, neither reading is safe to guess.
    for (const Item &It : C.Items)
      for (const Dimension &Dim : It.Dims)
        if (Dim.K == Dimension::Range)
          return fail(Dim.Offset, "'" + It.Text +
                                      "' in depend(...) is ambiguous: OpenMP reads [a:b] as b "
                                      "elements from a, OmpSs as elements a to b; write [a;n] for n elements "
                                      "from a (or name it in in(...), out(...) or inout(...), where [a:b] is "
                                      "OmpSs' a to b)");
    return true;
  }

  bool parseList(Clause &C, std::string_view ClauseText) {
    const Token &Open = next();
    if (!Open.is("("))
      return fail(Open.Offset, "expected '(' after '" + std::string(ClauseText) + "', found " + quoted(Open));
    return parseItems(C, ClauseText, Open);
  }

  /// The items of a list whose '(' was `Open`, up to its ')'.
  bool parseItems(Clause &C, std::string_view ClauseText, const Token &Open) {
    if (peek().is(")")) return fail(peek().Offset, "empty list in '" + std::string(ClauseText) + "'");
    while (true) {
      Item It;
      if (!parseItem(It)) return false;
      C.Items.push_back(std::move(It));
      const Token &Sep = next();
      if (Sep.is(")")) return true;
      if (Sep.K == Token::End)
        return fail(Open.Offset,
                    "unbalanced brackets: '(' of '" + std::string(ClauseText) + "' is never closed");
      if (!Sep.is(","))
        return fail(Sep.Offset,
                    "expected ',' or ')' in '" + std::string(ClauseText) + "', found " + quoted(Sep));
      if (peek().is(")") || peek().K == Token::End)
        return fail(peek().Offset, "expected an item after ',' in '" + std::string(ClauseText) + "'");
    }
  }

  bool parseItem(Item &It) {
    size_t FirstToken = Pos;
    It.Begin = peek().Offset;
    // OmpSs shaping expressions: [e1][e2]name.
    while (peek().is("[")) {
      const Token &Open = next();
      ExprText E;
      char Stop = 0;
      if (!parseExpr(E, Open.Offset, '[', ']', "", Stop)) return false;
      It.Text += "[" + squeeze(E.Text) + "]";
      It.Shape.push_back(std::move(E));
    }
    // OmpSs: `*p`, the object p points to.
    if (It.Shape.empty() && peek().is("*")) {
      next();
      It.Deref = true;
      It.Text += "*";
      if (peek().is("*"))
        return fail(peek().Offset, "'**' in an item: name the pointer that points to the data");
    }
    const Token &Name = next();
    if (Name.K != Token::Ident || isKeyword(Name.Text)) {
      if (!It.Shape.empty())
        return fail(Name.Offset, "expected a name after the shape, found " + quoted(Name));
      if (It.Deref) return fail(Name.Offset, "expected a name after '*', found " + quoted(Name));
      return fail(Name.Offset, "expected a name, found " + quoted(Name));
    }
    It.Name = std::string(Name.Text);
    It.Offset = Name.Offset;
    It.Text += It.Name;
    // `s.m`, `p->m`: a pointer member of a struct.
    while ((peek().is(".") || peek().is("->"))) {
      const Token &Op = next();
      const Token &Member = next();
      if (Member.K != Token::Ident || isKeyword(Member.Text))
        return fail(Member.Offset,
                    "expected a member name after '" + std::string(Op.Text) + "', found " + quoted(Member));
      MemberStep M;
      M.Arrow = Op.is("->");
      M.Name = std::string(Member.Text);
      M.Offset = Member.Offset;
      It.Text += std::string(Op.Text) + M.Name;
      It.Members.push_back(std::move(M));
    }
    while (peek().is("[")) {
      const Token &Open = next();
      Dimension D;
      D.Offset = Open.Offset;
      char Stop = 0;
      if (!parseExpr(D.First, Open.Offset, '[', ']', ";:", Stop)) return false;
      if (Stop == ';' || Stop == ':') {
        D.K = Stop == ';' ? Dimension::Length : Dimension::Range;
        unsigned SepOffset = Tokens[Pos - 1].Offset;
        if (!parseExpr(D.Second, SepOffset, '[', ']', "", Stop)) return false;
      }
      It.Text += "[" + squeeze(D.First.Text);
      if (D.K != Dimension::Extent)
        It.Text += std::string(D.K == Dimension::Length ? ";" : ":") + squeeze(D.Second.Text);
      It.Text += "]";
      It.Dims.push_back(std::move(D));
    }
    // SMPSs 2.x regions: {lo:len}, {lo..hi}, {}, {i}.
    while (peek().is("{")) {
      const Token &Open = next();
      Dimension D;
      D.Offset = Open.Offset;
      if (peek().is("}")) {
        next();
        D.K = Dimension::Whole;
        It.Text += "{}";
        It.Regions.push_back(std::move(D));
        continue;
      }
      char Stop = 0;
      if (!parseExpr(D.First, Open.Offset, '{', '}', ":.", Stop)) return false;
      D.K = Dimension::Index;
      if (Stop == ':' || Stop == '.') {
        D.K = Stop == ':' ? Dimension::Length : Dimension::Range;
        unsigned SepOffset = Tokens[Pos - 1].Offset;
        if (!parseExpr(D.Second, SepOffset, '{', '}', "", Stop)) return false;
      }
      It.Text += "{" + squeeze(D.First.Text);
      if (D.K == Dimension::Length || D.K == Dimension::Range)
        It.Text += std::string(D.K == Dimension::Length ? ":" : "..") + squeeze(D.Second.Text);
      It.Text += "}";
      It.Regions.push_back(std::move(D));
    }
    if (peek().is("["))
      return fail(peek().Offset, "'[...]' after '{...}' in '" + It.Text +
                                     "': write the dimensions '[...]' first, then the regions '{...}'");
    if (!It.Regions.empty())
      for (const Dimension &D : It.Dims)
        if (D.K != Dimension::Extent)
          return fail(D.Offset, "a section '[...]' and regions '{...}' in one item ('" + It.Text +
                                    "'): give the part with one notation, e.g. '" + It.Name +
                                    "{lo:len}' for '" + It.Name + "[lo;len]'");
    if (It.Deref) {
      if (!It.Regions.empty())
        return fail(It.Regions.front().Offset,
                    "regions '{...}' after '*" + It.Name +
                        "': '*p' is the object p points to; name 'p{...}' instead");
      for (const Dimension &D : It.Dims)
        if (D.K != Dimension::Extent)
          return fail(D.Offset, "a section after '*" + It.Name +
                                    "': after '*', '[i]' are C subscripts ('*p[i]' is the object p[i] "
                                    "points to); write the section on the pointer, e.g. 'p[i][lo;len]'");
    }
    if (!It.Shape.empty() && !It.Regions.empty())
      return fail(It.Regions.front().Offset,
                  "a shape '[...]" + It.Name + "' and regions '{...}' in one item ('" + It.Text +
                      "'): after a shape, give the part with sections, e.g. '[n][m]" + It.Name +
                      "[i;1][0;m]'");
    for (size_t I = FirstToken; I < Pos; ++I)
      It.Tokens.emplace_back(Tokens[I].Text);
    return true;
  }

  static std::string squeeze(const std::string &S) {
    std::string Out;
    for (char C : S)
      if (!std::isspace(static_cast<unsigned char>(C))) Out += C;
    return Out;
  }

  /// Reads a C expression up to `Close` at depth 0, or one of `Seps` at depth
  /// 0 (';', ':', and '.' for the token '..'), keeping brackets balanced.
  /// Consumes the terminator and says which it was in `Stop`.
  bool parseExpr(ExprText &E, unsigned OpenOffset, char Open, char Close, std::string_view Seps, char &Stop) {
    std::vector<char> Closers;
    int PendingTernary = 0;
    size_t First = Pos;
    auto isSep = [&](char C) { return Seps.find(C) != std::string_view::npos; };
    while (true) {
      const Token &T = peek();
      if (T.K == Token::End)
        return fail(OpenOffset, "unbalanced brackets: '" + std::string(1, Open) + "' is never closed");
      if (T.K == Token::Punct && T.Text == ".." && Closers.empty()) {
        if (!isSep('.'))
          return fail(T.Offset, "unexpected '..': a range 'lo..hi' belongs in an SMPSs region '{lo..hi}'; in "
                                "'[...]' write 'lo:hi'");
        Stop = '.';
        break;
      }
      if (T.K == Token::Punct && T.Text.size() == 1) {
        char C = T.Text[0];
        if (C == '(' || C == '[' || C == '{') {
          Closers.push_back(C == '(' ? ')' : C == '[' ? ']' : '}');
        } else if (C == ')' || C == ']' || C == '}') {
          if (Closers.empty()) {
            if (C != Close)
              return fail(T.Offset, "unbalanced brackets: unexpected '" + std::string(1, C) + "'");
            Stop = Close;
            break;
          }
          if (Closers.back() != C)
            return fail(T.Offset, "unbalanced brackets: expected '" + std::string(1, Closers.back()) +
                                      "', found '" + std::string(1, C) + "'");
          Closers.pop_back();
        } else if (C == '?' && Closers.empty()) {
          ++PendingTernary;
        } else if ((C == ';' || C == ':') && Closers.empty()) {
          if (C == ':' && PendingTernary > 0) {
            --PendingTernary;
          } else if (!isSep(C)) {
            return fail(T.Offset, "unexpected '" + std::string(1, C) + "' in " +
                                      (Open == '(' ? "the expression" : "a dimension"));
          } else {
            Stop = C;
            break;
          }
        }
      }
      next();
    }
    const Token &Terminator = peek();
    if (Pos == First) {
      std::string What = Stop == '.' ? ".." : std::string(1, Stop);
      return fail(Terminator.Offset, "expected an expression before '" + What + "'");
    }
    unsigned Begin = Tokens[First].Offset;
    E.Offset = Begin;
    E.Text = std::string(Text.substr(Begin, Terminator.Offset - Begin));
    while (!E.Text.empty() && std::isspace(static_cast<unsigned char>(E.Text.back())))
      E.Text.pop_back();
    for (size_t I = First; I < Pos; ++I) {
      const Token &T = Tokens[I];
      if (T.K != Token::Ident || isKeyword(T.Text)) continue;
      bool AfterMember =
          I > First && (Tokens[I - 1].is(".") || Tokens[I - 1].is("->") || Tokens[I - 1].is("::"));
      bool BeforeScope = Tokens[I + 1].is("::");
      if (!AfterMember && !BeforeScope) E.Names.push_back(ExprName{std::string(T.Text), T.Offset});
    }
    next(); // the terminator
    return true;
  }
};

} // namespace

ParseResult parseDirective(std::string_view Text, PragmaDialect Dialect) {
  return Parser(Text, Dialect).run();
}

bool isReadOmpDirective(std::string_view FirstWord, std::string_view NextWord) {
  static constexpr std::array<std::string_view, 15> Read = {
      "task",     "taskwait", "critical",  "atomic",   "barrier", "parallel", "single", "for",
      "sections", "scope",    "taskgroup", "taskloop", "master",  "masked",   "target"};
  if (FirstWord == "target") return NextWord == "device"; // OmpSs; OpenMP's target offloads
  for (std::string_view W : Read)
    if (W == FirstWord) return true;
  return false;
}

} // namespace gpuss
