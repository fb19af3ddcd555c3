//===- StringizedArgs.h - Macro arguments that a macro turns into a string -===//
//
// A task call written in an argument of a function-like macro is rewritten
// where it is written (CallSites.h), so that the macro expands the submit.
// Where a macro also turns that argument into a string (`#x`: directly, as
// `#define LOG(...) (puts(#__VA_ARGS__), __VA_ARGS__)`, or through another
// macro, `#define STR(x) #x` used as `STR(__VA_ARGS__)`), the string holds
// the rewritten call too. This callback records, as the preprocessor expands
// macros, where each token that a `#` turns into a string is written, so
// that the analysis can warn at such calls.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_STRINGIZEDARGS_H
#define GPUSS_TRANSLATOR_STRINGIZEDARGS_H

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/PPCallbacks.h"

#include <map>
#include <string>

namespace clang {
class SourceManager;
}

namespace gpuss {

/// A token of a macro argument that the macro's definition turns into a
/// string with `#`.
struct StringizedToken {
  std::string Macro;          ///< the macro whose `#` takes it
  clang::SourceLocation Hash; ///< that `#`, in the macro's definition
};

/// By where they are written in a file (the raw encoding of the location):
/// the tokens that macros turn into strings.
using StringizedTokens = std::map<clang::SourceLocation::UIntTy, StringizedToken>;

class StringizedTokenRecorder : public clang::PPCallbacks {
public:
  StringizedTokenRecorder(const clang::SourceManager &SM, StringizedTokens &Out) : SM(SM), Out(Out) {}
  void MacroExpands(const clang::Token &MacroName, const clang::MacroDefinition &MD, clang::SourceRange Range,
                    const clang::MacroArgs *Args) override;

private:
  const clang::SourceManager &SM;
  StringizedTokens &Out;
};

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_STRINGIZEDARGS_H
