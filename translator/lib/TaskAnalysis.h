//===- TaskAnalysis.h - Attach directives to code, check them, plan edits --===//
//
// The entry point of the analysis, and the dispatcher: takes the captured
// directives and the AST facts, parses each directive, pairs task and
// target directives, and hands each group to the part that owns what it
// stands before; then runs the later phases in order. It owns that order
// and nothing else. The parts:
//
//   TaskDeclarations  a task directive before a function declaration
//   CallSites         before a call; every task call rewritten
//   TaskBlocks        before a block `{ ... }` (OmpSs), outlined
//   SyncDirectives    barrier, wait on, start, finish
//   TaskBuilder       a directive and its function as a task model
//   Templates         function templates as tasks, calls in templates
//   RegionBuilder     an item as a css_region
//   SizeChecks        constant sizes and bounds that cannot be
//   NameLookup        what the names of a clause mean
//   LocalWaits        css_release where the locals tasks use stop living
//   TaskRegistry      the tasks found
//   AnalysisContext   diagnostics, positions, spelling, shared by all
//
// The edits of the main file (and translated headers) are planned as text
// from CodeGen. Every user mistake is reported through the
// DiagnosticsEngine.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_TASKANALYSIS_H
#define GPUSS_TRANSLATOR_TASKANALYSIS_H

#include "ConstantProbe.h"
#include "PragmaCapture.h"
#include "StringizedArgs.h"
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
/// `Stringized`: the tokens that macros turned into strings, as the
/// preprocessor expanded them. `Evaluate` (may be empty) checks the
/// directives' constant sizes.
bool analyzeAndPlan(clang::ASTContext &Context, const std::vector<RawDirective> &Directives,
                    const StringizedTokens &Stringized, const ASTFacts &Facts, EditPlan &Plan,
                    const ConstantEvaluator &Evaluate);

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_TASKANALYSIS_H
