//===- Templates.cpp - Function templates as tasks -------------------------===//
#include "Templates.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/TemplateBase.h"

#include <set>

namespace gpuss {

bool TemplateSupport::describeTemplate(const clang::FunctionTemplateDecl *Template, TaskCode &Code) {
  std::string Head, Args;
  std::string Function = Template->getNameAsString();
  for (const clang::NamedDecl *P : *Template->getTemplateParameters()) {
    std::string Name = P->getNameAsString();
    if (P->isTemplateParameterPack()) {
      AC.error(P->getLocation(),
               "template parameter pack '%0' of task function '%1': a task needs a fixed list of "
               "template parameters",
               Name, Function);
      return false;
    }
    if (Name.empty()) {
      AC.error(P->getLocation(), "unnamed template parameter of task function '%0'; give it a name",
               Function);
      return false;
    }
    std::string Declared;
    bool HasDefault = false;
    if (const auto *Type = llvm::dyn_cast<clang::TemplateTypeParmDecl>(P)) {
      Declared = "typename " + Name;
      HasDefault = Type->hasDefaultArgument();
    } else if (const auto *Value = llvm::dyn_cast<clang::NonTypeTemplateParmDecl>(P)) {
      Declared = AC.genType(Value->getType(), Name);
      HasDefault = Value->hasDefaultArgument();
    } else {
      AC.error(P->getLocation(),
               "template template parameter '%0' of task function '%1' is not supported: the generated "
               "task code cannot forward it; take the class itself as a type parameter instead",
               Name, Function);
      return false;
    }
    if (HasDefault) {
      AC.error(P->getLocation(),
               "default argument of template parameter '%0' of task function '%1' is not supported; "
               "name the argument at the calls or let it be deduced",
               Name, Function);
      return false;
    }
    Head += (Head.empty() ? "" : ", ") + Declared;
    Args += (Args.empty() ? "" : ", ") + Name;
  }
  Code.TemplateHead = "template <" + Head + ">";
  Code.TemplateArgs = "<" + Args + ">";
  Code.Callee += Code.TemplateArgs;
  for (const ParamCode &P : Code.Params)
    if (P.CopyableUnknown) Code.DependentParamTypes.push_back(P.TypeName);
  return true;
}

std::string TemplateSupport::specializationArgs(const clang::FunctionDecl *FD) const {
  const clang::TemplateArgumentList *TemplateArgs = FD->getTemplateSpecializationArgs();
  if (!TemplateArgs) return "";
  std::string Printed;
  llvm::raw_string_ostream OS(Printed);
  clang::printTemplateArgumentList(OS, TemplateArgs->asArray(), Ctx.getPrintingPolicy());
  return OS.str();
}

std::optional<size_t> TemplateSupport::declaredTaskCalled(const clang::CallExpr *Call) {
  if (const clang::FunctionDecl *FD = Call->getDirectCallee()) return Tasks.declaredTaskOf(FD);
  const auto *Lookup = llvm::dyn_cast<clang::UnresolvedLookupExpr>(Call->getCallee()->IgnoreParenImpCasts());
  if (!Lookup) return std::nullopt;
  std::set<std::optional<size_t>> Meanings;
  for (const clang::NamedDecl *D : Lookup->decls()) {
    D = D->getUnderlyingDecl();
    if (const auto *Template = llvm::dyn_cast<clang::FunctionTemplateDecl>(D))
      D = Template->getTemplatedDecl();
    const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D);
    Meanings.insert(FD ? Tasks.declaredTaskOf(FD) : std::nullopt);
  }
  if (Meanings.size() == 1) return *Meanings.begin();
  for (const std::optional<size_t> &Task : Meanings)
    if (Task) {
      AC.error(AC.fileLoc(Call->getBeginLoc()),
               "this call in a template may call task function '%0' or another function of that name, "
               "depending on the template's arguments; give the task function a name of its own",
               Tasks[*Task].Code.Label);
      break;
    }
  return std::nullopt;
}

} // namespace gpuss
