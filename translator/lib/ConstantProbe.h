//===- ConstantProbe.h - Evaluate directive expressions with Clang ---------===//
//
// The translator keeps a directive's expressions as text. To tell whether a
// constant one is a valid size (`a[8:2]`, `a[2.5]`, `a[1L << 62]`), Clang
// evaluates it: each expression becomes a declaration written right after
// its directive, where the same macros, constants and enumerators are in
// scope, in a second parse of the sources; its diagnostics are discarded,
// and an expression that does not make a constant there is not checked.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_CONSTANTPROBE_H
#define GPUSS_TRANSLATOR_CONSTANTPROBE_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/APSInt.h"

#include <functional>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
}

namespace gpuss {

/// An expression to evaluate, and the place after which it is in scope (a
/// file location: the end of its directive).
struct ConstantProbe {
  clang::SourceLocation After;
  std::string Text;
};

struct ConstantValue {
  enum Kind {
    Unknown, ///< not a constant there (names a parameter, a variable...)
    Integer,
    Floating,
    String,
    Pointer
  };
  Kind K = Unknown;
  llvm::APSInt Int;
  double Float = 0;
};

/// Evaluates the probes, one value each (Unknown where Clang could not).
using ConstantEvaluator = std::function<std::vector<ConstantValue>(const std::vector<ConstantProbe> &)>;

/// An evaluator that parses the sources of `CI` again with the probes.
ConstantEvaluator makeConstantEvaluator(clang::CompilerInstance &CI);

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_CONSTANTPROBE_H
