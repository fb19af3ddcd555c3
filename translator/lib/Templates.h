//===- Templates.h - Function templates as tasks ---------------------------===//
//
// Owns what is particular to C++ templates: a task directive on a function
// template makes the generated struct, trampoline and submit helper
// templates with the same parameters (checked here: no packs, no unnamed or
// template template parameters, no default arguments), and parameter types
// that depend on template parameters are asserted copyable when the
// template is instantiated; a call-site task of a specialization names its
// template arguments; and a call inside a template, whose callee is known
// only at instantiation, is a task call when every function its name may
// mean is the same task (an error where it may mean others too).
//
// Elsewhere: functions and classes that are templates are refused where
// they cannot be tasks (TaskBuilder: static members of class templates;
// CallSites: calls inside a class template's definition; TaskBlocks: blocks
// inside templates); specializations find their template's task through
// TaskRegistry::declaredTaskOf.
//
// Relies on TaskRegistry and AnalysisContext.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_TEMPLATES_H
#define GPUSS_TRANSLATOR_TEMPLATES_H

#include "AnalysisContext.h"
#include "TaskRegistry.h"

#include <optional>
#include <string>

namespace gpuss {

class TemplateSupport {
public:
  TemplateSupport(AnalysisContext &AC, TaskRegistry &Tasks) : AC(AC), Ctx(AC.Ctx), Tasks(Tasks) {}

  /// The template head and arguments of a task function template, for the
  /// generated code (TaskModel.h); the trampoline names the function with
  /// explicit arguments.
  bool describeTemplate(const clang::FunctionTemplateDecl *Template, TaskCode &Code);

  /// `<...>`, the template arguments of FD when it is a specialization of a
  /// function template, else "": a call-site task of a specialization names
  /// them, since the trampoline's arguments may not deduce them.
  std::string specializationArgs(const clang::FunctionDecl *FD) const;

  /// The task (declaration pragma) a call names, if any. In a template, a
  /// call whose arguments depend on template parameters is resolved only
  /// at instantiation; it names the task when every function its name may
  /// mean is that task's (the submit helper then stands in for all of
  /// them). Where the name also means other functions, whether the call
  /// is a task is unknown: an error, not an ordinary call that would race
  /// with the tasks in flight.
  std::optional<size_t> declaredTaskCalled(const clang::CallExpr *Call);

private:
  AnalysisContext &AC;
  clang::ASTContext &Ctx;
  TaskRegistry &Tasks;
};

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_TEMPLATES_H
