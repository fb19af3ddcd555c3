//===- TaskDeclarations.h - Task directives on function declarations -------===//
//
// Owns the tasks annotated where a function is declared or defined: the
// directive makes the function a task at every call. The task's model is
// built from the function's parameters (TaskBuilder), with a template head
// for a function template (Templates), and registered by canonical
// declaration so that calls find it. Directives on two declarations of the
// same function must say the same (compared with parameters named by
// position, whitespace aside); the second is then only commented out.
//
// Relies on TaskBuilder, Templates, TaskRegistry and AnalysisContext.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_TASKDECLARATIONS_H
#define GPUSS_TRANSLATOR_TASKDECLARATIONS_H

#include "AnalysisContext.h"
#include "TaskBuilder.h"
#include "TaskRegistry.h"
#include "Templates.h"

#include <map>
#include <string>
#include <vector>

namespace gpuss {

class TaskDeclarations {
public:
  TaskDeclarations(AnalysisContext &AC, TaskRegistry &Tasks, TaskBuilder &Builder, TemplateSupport &Templates)
      : AC(AC), Tasks(Tasks), Builder(Builder), Templates(Templates) {}

  /// A task directive (and its target) before a declaration of FD, the
  /// pattern of `Template` when that is not null.
  void attach(ParsedDirective *Task, ParsedDirective *Target, const clang::FunctionDecl *FD,
              const clang::FunctionTemplateDecl *Template);

private:
  /// What a declaration's task directives say, to compare them with the
  /// directives of another declaration of the same function.
  struct SummaryEntry {
    std::string Key;   ///< parameters named by position
    std::string Shown; ///< as written, e.g. "inout(a[n])"
    const RawDirective *Raw = nullptr;
    unsigned Offset = 0;
    bool operator<(const SummaryEntry &O) const { return Key < O.Key; }
  };
  struct DirectiveSummary {
    std::vector<SummaryEntry> Entries; ///< sorted by Key
    const RawDirective *Raw = nullptr;
  };

  DirectiveSummary summarize(const clang::FunctionDecl *FD, const ParsedDirective *Task,
                             const ParsedDirective *Target) const;

  /// Directives on two declarations of one function must say the same.
  bool checkSameDirectives(const clang::FunctionDecl *FD, const DirectiveSummary &First,
                           const DirectiveSummary &Here);

  AnalysisContext &AC;
  TaskRegistry &Tasks;
  TaskBuilder &Builder;
  TemplateSupport &Templates;
  std::map<const clang::FunctionDecl *, DirectiveSummary> DeclTaskSummary;
};

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_TASKDECLARATIONS_H
