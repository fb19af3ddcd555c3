//===- NameLookup.h - What the names of a directive mean -------------------===//
//
// Owns name resolution for directives: what each name in a clause stands
// for (a macro, a parameter of the task function, a template parameter, a
// local variable at the pragma, a data member through `this`, a declaration
// of the namespaces and classes around), how the generated code spells it
// (fully qualified in C++, since that code stands elsewhere), and what an
// item's base is (`a`, `s.m`, `p->m`): its declaration and type. Unknown
// names, and member paths that do not exist, are reported here.
//
// Relies on the AST facts (locals and file-scope names, TaskVisitor.h) and
// on AnalysisContext for diagnostics and spelling.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_NAMELOOKUP_H
#define GPUSS_TRANSLATOR_NAMELOOKUP_H

#include "AnalysisContext.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuss {

/// Where the names of a directive are looked up.
struct NameScope {
  const RawDirective *Raw = nullptr;
  const clang::FunctionDecl *TaskFn = nullptr;    ///< declaration pragma: its parameters
  const clang::FunctionDecl *Enclosing = nullptr; ///< call-site pragma / wait: the function around it
  unsigned AtOffset = 0;                          ///< ... and the position in it (main file offset)
};

/// What a name in a clause means, and how the generated code spells it.
struct NameMeaning {
  enum Kind { Unknown, Macro, Param, TemplateParam, Local, Member, Scoped } K = Unknown;
  std::string Spelling;                   ///< "n", "this->n", "::lib::BS"
  const clang::NamedDecl *Decl = nullptr; ///< Local, Member, Scoped
};

/// What an item's name refers to.
struct BaseInfo {
  std::string Name;
  clang::QualType Type;     ///< the declared type (adjusted for parameters)
  clang::QualType Original; ///< the type as written (arrays of parameters)
  bool IsParm = false;
  int ParamIndex = -1;                   ///< declaration pragmas: the task function's parameter
  const clang::ValueDecl *Var = nullptr; ///< call sites and `wait on`: the variable
  bool IsReference = false;              ///< a `T &` parameter: Type is T, the object it refers to
  /// `s.m`, `p->m`: the parameter or variable the path starts from, its
  /// type, and the path (Name is the whole spelling).
  std::string Root;
  clang::QualType RootType;
  std::vector<MemberStep> Members;
};

class NameResolver {
public:
  explicit NameResolver(AnalysisContext &AC) : AC(AC), Ctx(AC.Ctx), SM(AC.SM), Facts(AC.Facts) {}

  /// A name of a clause: a macro, a parameter, a local variable, a member of
  /// the classes around (a data member through `this` in a member function),
  /// or a declaration of the namespaces around, which the generated code
  /// (placed elsewhere) names fully qualified in C++.
  NameMeaning resolveName(const NameScope &S, const std::string &Name) const;

  bool isKnown(const NameScope &S, const std::string &Name) const;

  /// `E` as the generated code spells it: names of the namespaces and
  /// classes around qualified (`::lib::BS`), data members through `this`.
  std::string qualified(const NameScope &S, const ExprText &E) const;

  /// A copy of `It` whose expressions are spelt for the generated code.
  Item qualifiedItem(const NameScope &S, const Item &It) const;

  /// Every name in E (in It) is known; reports those that are not.
  bool checkExprNames(const NameScope &S, const ExprText &E);
  bool checkItemNames(const NameScope &S, const Item &It);

  /// The base of an item (its name and member path); reports an unknown
  /// name, or a name that is not a parameter of the task function.
  std::optional<BaseInfo> resolveBase(const NameScope &S, const Item &It);

private:
  const clang::ValueDecl *lookupLocal(const NameScope &S, const std::string &Name) const;

  std::optional<BaseInfo> lookupBase(const NameScope &S, const std::string &Name) const;

  /// `s.m.n`, `p->m`: the member a path names, from a struct passed by value
  /// or a pointer (or reference) to one; only the first step may go through
  /// a pointer.
  bool resolveMembers(const NameScope &S, const Item &It, BaseInfo &B);

  AnalysisContext &AC;
  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  const ASTFacts &Facts;
};

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_NAMELOOKUP_H
