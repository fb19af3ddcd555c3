//===- TaskAnalysis.h - Attach directives to code, check them, plan edits --===//
//
// Takes the captured directives and the AST facts; parses each directive,
// finds the function or call it stands before, resolves every name, checks
// scalars against pointers, and plans the edits of the main file (text from
// CodeGen). Every user mistake is reported through the DiagnosticsEngine.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_TASKANALYSIS_H
#define GPUSS_TRANSLATOR_TASKANALYSIS_H

#include "ConstantProbe.h"
#include "PragmaCapture.h"
#include "TaskVisitor.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"

#include <string>
#include <vector>

namespace gpuss {

/// Text edits of the main file.
struct EditPlan {
  struct Insertion {
    clang::SourceLocation Loc;
    std::string Text;
  };
  struct Replacement {
    clang::CharSourceRange Range;
    std::string Text;
  };
  std::vector<Insertion> Insertions; ///< at the same location, kept in this order
  std::vector<Replacement> Replacements;
  bool UsesRuntime = false; ///< needs `#include "gpuss.h"`
};

/// Returns false (after reporting the errors) when the input is malformed.
/// `Evaluate` (may be empty) checks the directives' constant sizes.
bool analyzeAndPlan(clang::ASTContext &Context, const std::vector<RawDirective> &Directives,
                    const ASTFacts &Facts, EditPlan &Plan, const ConstantEvaluator &Evaluate);

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_TASKANALYSIS_H
