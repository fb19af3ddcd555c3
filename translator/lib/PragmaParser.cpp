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
  }
  return "?";
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

bool isIdentStart(char C) {
  return std::isalpha(static_cast<unsigned char>(C)) || C == '_';
}
bool isIdentChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
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
      while (I < S.size() && (isIdentChar(S[I]) || S[I] == '.' ||
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
      static constexpr std::array<std::string_view, 4> TwoChar = {"::", "->", "<<", ">>"};
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

class Parser {
public:
  explicit Parser(std::string_view Text) : Text(Text), Tokens(lex(Text)) {}

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
                  "expected a directive (task, target, barrier, wait, start or finish) after 'css', "
                  "found " +
                      quoted(Name));
    if (Name.Text == "task") {
      D.Kind = DirectiveKind::Task;
      return parseTask(D.Task);
    }
    if (Name.Text == "target") {
      D.Kind = DirectiveKind::Target;
      return parseTarget(D.Target, Name.Offset);
    }
    if (Name.Text == "wait") {
      D.Kind = DirectiveKind::Wait;
      const Token &On = next();
      if (!On.is("on")) return fail(On.Offset, "expected 'on(...)' after 'wait', found " + quoted(On));
      Clause C;
      C.Kind = ClauseKind::On;
      C.Offset = On.Offset;
      if (!parseList(C, "on")) return false;
      D.Wait.Items = std::move(C.Items);
      return expectEnd("wait on(...)");
    }
    if (Name.Text == "barrier" || Name.Text == "start" || Name.Text == "finish") {
      D.Kind = Name.Text == "barrier" ? DirectiveKind::Barrier
               : Name.Text == "start" ? DirectiveKind::Start
                                      : DirectiveKind::Finish;
      return expectEnd(Name.Text);
    }
    return fail(Name.Offset, "unknown directive '" + std::string(Name.Text) +
                                 "' (expected task, target, barrier, wait, start or finish)");
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
                    "expected a clause (input, output, inout or highpriority), found " + quoted(Name));
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
      } else
        return fail(Name.Offset, "unknown clause '" + std::string(Name.Text) +
                                     "' in a task directive (expected input, output, inout or highpriority)");
      if (!parseList(C, Name.Text)) return false;
      Task.Clauses.push_back(std::move(C));
    }
    return true;
  }

  bool parseTarget(TargetDirective &Target, unsigned DirectiveOffset) {
    bool SawDevice = false;
    while (peek().K != Token::End) {
      const Token &Name = next();
      if (Name.K != Token::Ident)
        return fail(Name.Offset,
                    "expected a clause (device, copy_in, copy_out or copy_inout), found " + quoted(Name));
      if (Name.Text == "device") {
        if (SawDevice) return fail(Name.Offset, "more than one device clause");
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
      Clause C;
      C.Offset = Name.Offset;
      if (Name.Text == "copy_in")
        C.Kind = ClauseKind::CopyIn;
      else if (Name.Text == "copy_out")
        C.Kind = ClauseKind::CopyOut;
      else if (Name.Text == "copy_inout")
        C.Kind = ClauseKind::CopyInout;
      else
        return fail(Name.Offset,
                    "unknown clause '" + std::string(Name.Text) +
                        "' in a target directive (expected device, copy_in, copy_out or copy_inout)");
      if (!parseList(C, Name.Text)) return false;
      Target.Copies.push_back(std::move(C));
    }
    if (!SawDevice) return fail(DirectiveOffset, "a target directive needs device(cuda) or device(smp)");
    return true;
  }

  bool parseList(Clause &C, std::string_view ClauseText) {
    const Token &Open = next();
    if (!Open.is("("))
      return fail(Open.Offset, "expected '(' after '" + std::string(ClauseText) + "', found " + quoted(Open));
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
    const Token &Name = next();
    if (Name.K != Token::Ident || isKeyword(Name.Text))
      return fail(Name.Offset, "expected a name, found " + quoted(Name));
    It.Name = std::string(Name.Text);
    It.Offset = Name.Offset;
    It.Text = It.Name;
    while (peek().is("[")) {
      const Token &Open = next();
      Dimension D;
      D.Offset = Open.Offset;
      char Stop = 0;
      if (!parseExpr(D.First, Open.Offset, /*AllowSectionSep=*/true, Stop)) return false;
      if (Stop == ';' || Stop == ':') {
        D.K = Stop == ';' ? Dimension::Length : Dimension::Range;
        unsigned SepOffset = Tokens[Pos - 1].Offset;
        if (!parseExpr(D.Second, SepOffset, /*AllowSectionSep=*/false, Stop)) return false;
      }
      It.Text += "[" + squeeze(D.First.Text);
      if (D.K != Dimension::Extent)
        It.Text += std::string(D.K == Dimension::Length ? ";" : ":") + squeeze(D.Second.Text);
      It.Text += "]";
      It.Dims.push_back(std::move(D));
    }
    return true;
  }

  static std::string squeeze(const std::string &S) {
    std::string Out;
    for (char C : S)
      if (!std::isspace(static_cast<unsigned char>(C))) Out += C;
    return Out;
  }

  /// Reads a C expression up to a ']' (or ';' / ':' when a section separator
  /// may come), keeping brackets balanced. Consumes the terminator.
  bool parseExpr(ExprText &E, unsigned OpenOffset, bool AllowSectionSep, char &Stop) {
    std::vector<char> Closers;
    int PendingTernary = 0;
    size_t First = Pos;
    while (true) {
      const Token &T = peek();
      if (T.K == Token::End) return fail(OpenOffset, "unbalanced brackets: '[' is never closed");
      if (T.K == Token::Punct && T.Text.size() == 1) {
        char C = T.Text[0];
        if (C == '(' || C == '[' || C == '{') {
          Closers.push_back(C == '(' ? ')' : C == '[' ? ']' : '}');
        } else if (C == ')' || C == ']' || C == '}') {
          if (Closers.empty()) {
            if (C != ']')
              return fail(T.Offset, "unbalanced brackets: unexpected '" + std::string(1, C) + "'");
            Stop = ']';
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
          } else if (!AllowSectionSep) {
            return fail(T.Offset, "unexpected '" + std::string(1, C) + "' in a dimension");
          } else {
            Stop = C;
            break;
          }
        }
      }
      next();
    }
    const Token &Terminator = peek();
    if (Pos == First)
      return fail(Terminator.Offset, "expected an expression before '" + std::string(1, Stop) + "'");
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

ParseResult parseDirective(std::string_view Text) {
  return Parser(Text).run();
}

} // namespace gpuss
