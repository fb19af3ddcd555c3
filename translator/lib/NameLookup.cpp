//===- NameLookup.cpp - What the names of a directive mean -----------------===//
#include "NameLookup.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace gpuss {

using clang::SourceLocation;

namespace {

/// The class and namespace scopes a directive sees, innermost first.
const clang::DeclContext *contextOf(const NameScope &S) {
  if (S.TaskFn) return S.TaskFn->getDeclContext();
  if (S.Enclosing) return S.Enclosing->getDeclContext();
  return nullptr;
}

/// `Name` declared in class RD or one of its bases.
const clang::NamedDecl *lookupInClass(const clang::CXXRecordDecl *RD, const std::string &Name,
                                      clang::ASTContext &Ctx) {
  if (!RD || !RD->hasDefinition()) return nullptr;
  RD = RD->getDefinition();
  clang::DeclarationName DN(&Ctx.Idents.get(Name));
  for (const clang::NamedDecl *D : RD->lookup(DN))
    if (llvm::isa<clang::ValueDecl, clang::TypeDecl>(D)) return D;
  for (const clang::CXXBaseSpecifier &Base : RD->bases())
    if (const clang::CXXRecordDecl *B = Base.getType()->getAsCXXRecordDecl())
      if (const clang::NamedDecl *D = lookupInClass(B, Name, Ctx)) return D;
  return nullptr;
}

/// Whether the directive of S stands inside a lambda in the function around
/// it: names declared in the lambda (its parameters, its locals) are not
/// among those a clause may use there.
bool insideLambda(const AnalysisContext &AC, const NameScope &S) {
  if (!S.Enclosing || !S.Enclosing->getBody() || !S.Raw) return false;
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const AnalysisContext &AC;
    clang::FileID File;
    unsigned At;
    bool Found = false;
    bool VisitLambdaExpr(clang::LambdaExpr *L) {
      Found = AC.holdsOffset(L->getBody(), File, At);
      return !Found;
    }
  } F{{}, AC, AC.SM.getFileID(AC.fileLoc(S.Raw->Begin)), S.AtOffset};
  F.TraverseStmt(S.Enclosing->getBody());
  return F.Found;
}

/// Why a name is unknown, and where names come from.
std::string whereNamesCome(const AnalysisContext &AC, const NameScope &S) {
  if (S.TaskFn)
    return "; a clause may use the parameters of '" + S.TaskFn->getNameAsString() +
           "' and the macros, enumerators and globals declared before the pragma";
  if (insideLambda(AC, S))
    return "; this task block is inside a lambda, where a clause may use the variables of '" +
           S.Enclosing->getNameAsString() +
           "' around the lambda, macros, enumerators and globals, but not the lambda's own parameters "
           "and locals: make the task a task function that the lambda calls";
  return "; a clause here may use the variables in scope at the pragma, macros, enumerators and globals";
}

} // namespace

NameMeaning NameResolver::resolveName(const NameScope &S, const std::string &Name) const {
  NameMeaning M;
  M.Spelling = Name;
  if (S.Raw && S.Raw->MacrosDefined.count(Name)) {
    M.K = NameMeaning::Macro;
    return M;
  }
  if (S.TaskFn)
    for (const clang::ParmVarDecl *P : S.TaskFn->parameters())
      if (P->getName() == Name) {
        M.K = NameMeaning::Param;
        M.Decl = P;
        return M;
      }
  // Template parameters are in scope where the generated code uses the
  // name: in the template's own helpers, or inline in the caller's body.
  for (const clang::FunctionDecl *FD : {S.TaskFn, S.Enclosing})
    if (const clang::FunctionTemplateDecl *Template = FD ? FD->getDescribedFunctionTemplate() : nullptr)
      for (const clang::NamedDecl *P : *Template->getTemplateParameters())
        if (P->getName() == Name) {
          M.K = NameMeaning::TemplateParam;
          return M;
        }
  if (S.Enclosing)
    if (const clang::ValueDecl *V = lookupLocal(S, Name)) {
      M.K = NameMeaning::Local;
      M.Decl = V;
      return M;
    }
  if (!Ctx.getLangOpts().CPlusPlus) {
    if (Facts.FileScopeNames.count(Name)) M.K = NameMeaning::Scoped;
    return M;
  }
  clang::DeclarationName DN(&Ctx.Idents.get(Name));
  const auto *Method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(S.Enclosing);
  for (const clang::DeclContext *DC = contextOf(S); DC; DC = DC->getParent()) {
    if (const auto *RD = llvm::dyn_cast<clang::CXXRecordDecl>(DC)) {
      const clang::NamedDecl *D = lookupInClass(RD, Name, Ctx);
      if (!D) continue;
      M.Decl = D;
      if (llvm::isa<clang::FieldDecl, clang::IndirectFieldDecl>(D) ||
          (llvm::isa<clang::CXXMethodDecl>(D) && !llvm::cast<clang::CXXMethodDecl>(D)->isStatic())) {
        // A non-static member: through `this`, in a member function.
        if (Method && !Method->isStatic() &&
            Method->getParent()->getCanonicalDecl() == RD->getCanonicalDecl()) {
          M.K = NameMeaning::Member;
          M.Spelling = "this->" + Name;
        }
        return M; // Unknown elsewhere: no object to take it from
      }
      M.K = NameMeaning::Scoped;
      M.Spelling = AC.scopeOf(RD) + Name;
      return M;
    }
    if (!DC->isFileContext()) continue;
    for (const clang::NamedDecl *D : DC->lookup(DN)) {
      M.K = NameMeaning::Scoped;
      M.Decl = D;
      M.Spelling = AC.scopeOf(D->getDeclContext()) + Name;
      return M;
    }
  }
  if (Facts.FileScopeNames.count(Name)) M.K = NameMeaning::Scoped; // e.g. through `using namespace`
  return M;
}

bool NameResolver::isKnown(const NameScope &S, const std::string &Name) const {
  return resolveName(S, Name).K != NameMeaning::Unknown;
}

std::string NameResolver::qualified(const NameScope &S, const ExprText &E) const {
  std::string Out;
  size_t At = 0;
  for (const ExprName &N : E.Names) {
    size_t Pos = N.Offset - E.Offset;
    if (Pos < At || Pos + N.Name.size() > E.Text.size()) continue;
    Out += E.Text.substr(At, Pos - At);
    Out += resolveName(S, N.Name).Spelling;
    At = Pos + N.Name.size();
  }
  return Out + E.Text.substr(std::min(At, E.Text.size()));
}

Item NameResolver::qualifiedItem(const NameScope &S, const Item &It) const {
  Item Q = It;
  for (ExprText &E : Q.Shape)
    E.Text = qualified(S, E);
  for (std::vector<Dimension> *Dims : {&Q.Dims, &Q.Regions})
    for (Dimension &D : *Dims) {
      D.First.Text = qualified(S, D.First);
      D.Second.Text = qualified(S, D.Second);
    }
  return Q;
}

const clang::ValueDecl *NameResolver::lookupLocal(const NameScope &S, const std::string &Name) const {
  const clang::ValueDecl *Found = nullptr;
  auto It = Facts.Locals.find(S.Enclosing);
  if (It != Facts.Locals.end())
    for (const clang::VarDecl *V : It->second)
      if (V->getName() == Name && SM.getFileOffset(AC.fileLoc(V->getLocation())) < S.AtOffset) Found = V;
  if (Found) return Found;
  for (const clang::ParmVarDecl *P : S.Enclosing->parameters())
    if (P->getName() == Name) return P;
  return nullptr;
}

std::optional<BaseInfo> NameResolver::lookupBase(const NameScope &S, const std::string &Name) const {
  BaseInfo B;
  B.Name = Name;
  if (S.TaskFn) {
    for (unsigned I = 0; I < S.TaskFn->getNumParams(); ++I) {
      const clang::ParmVarDecl *P = S.TaskFn->getParamDecl(I);
      if (P->getName() == Name) {
        B.Type = P->getType();
        B.Original = P->getOriginalType();
        B.IsParm = true;
        B.ParamIndex = static_cast<int>(I);
        if (B.Type->isReferenceType()) {
          // `T &x` named in a clause: the object it refers to.
          B.Type = B.Type.getNonReferenceType();
          B.Original = B.Type;
          B.IsReference = true;
        }
        return B;
      }
    }
    return std::nullopt;
  }
  NameMeaning M = resolveName(S, Name);
  const auto *V = llvm::dyn_cast_or_null<clang::ValueDecl>(M.Decl);
  if (!V && M.K == NameMeaning::Scoped) {
    auto It = Facts.FileScopeVars.find(Name);
    if (It != Facts.FileScopeVars.end()) V = It->second;
  }
  if (!V || llvm::isa<clang::FunctionDecl, clang::EnumConstantDecl>(V) ||
      (M.K != NameMeaning::Local && M.K != NameMeaning::Member && M.K != NameMeaning::Scoped))
    return std::nullopt;
  B.Name = M.Spelling;
  B.Var = V;
  B.Type = V->getType().getNonReferenceType();
  B.Original = B.Type;
  if (const auto *P = llvm::dyn_cast<clang::ParmVarDecl>(V)) {
    B.IsParm = true;
    B.Original = P->getOriginalType();
  }
  return B;
}

bool NameResolver::checkExprNames(const NameScope &S, const ExprText &E) {
  bool Ok = true;
  for (const ExprName &N : E.Names)
    if (!isKnown(S, N.Name)) {
      if (E.Text == N.Name)
        AC.error(S.Raw->locationOf(N.Offset), "unknown name '%0'%1", N.Name, whereNamesCome(AC, S));
      else
        AC.error(S.Raw->locationOf(N.Offset), "unknown name '%0' in '%1'%2", N.Name, E.Text,
                 whereNamesCome(AC, S));
      Ok = false;
    }
  return Ok;
}

bool NameResolver::checkItemNames(const NameScope &S, const Item &It) {
  bool Ok = true;
  for (const ExprText &E : It.Shape)
    Ok &= checkExprNames(S, E);
  for (const std::vector<Dimension> *Dims : {&It.Dims, &It.Regions})
    for (const Dimension &D : *Dims) {
      Ok &= checkExprNames(S, D.First);
      Ok &= checkExprNames(S, D.Second);
    }
  return Ok;
}

bool NameResolver::resolveMembers(const NameScope &S, const Item &It, BaseInfo &B) {
  B.Root = B.Name;
  B.RootType = B.Type;
  B.Members = It.Members;
  clang::QualType T = B.Type;
  std::string Path = It.Name;
  for (size_t I = 0; I < It.Members.size(); ++I) {
    const MemberStep &M = It.Members[I];
    SourceLocation Loc = S.Raw->locationOf(M.Offset);
    clang::QualType Record = T;
    if (M.Arrow) {
      if (!T->isPointerType()) {
        AC.error(Loc, "'->%0' on '%1', which is not a pointer (type '%2'); write '%1.%0'", M.Name, Path,
                 AC.printType(T));
        return false;
      }
      if (I > 0) {
        AC.error(Loc,
                 "'%0' reaches its data through a second pointer ('->%1'): a task's data must be reachable "
                 "from a parameter through one pointer member at most; pass '%2' as a parameter of its own",
                 It.baseText(), M.Name, Path);
        return false;
      }
      Record = T->getPointeeType();
    } else if (T->isPointerType()) {
      AC.error(Loc, "'.%0' on '%1', which is a pointer (type '%2'); write '%1->%0'", M.Name, Path,
               AC.printType(T));
      return false;
    }
    const clang::RecordDecl *RD = Record->getAsRecordDecl();
    RD = RD ? RD->getDefinition() : nullptr;
    if (!RD) {
      AC.error(Loc, "'%0' is not a struct (type '%1'), so it has no member '%2'",
               Path + (M.Arrow ? "[0]" : ""), AC.printType(Record), M.Name);
      return false;
    }
    const clang::FieldDecl *Field = nullptr;
    for (const clang::FieldDecl *F : RD->fields())
      if (F->getName() == M.Name) Field = F;
    if (!Field) {
      AC.error(Loc, "no member '%0' in '%1'", M.Name, AC.printType(Record));
      return false;
    }
    T = Field->getType();
    Path += (M.Arrow ? "->" : ".") + M.Name;
    B.Name += (M.Arrow ? "->" : ".") + M.Name;
  }
  B.Type = T;
  B.Original = T;
  B.IsParm = false;
  B.IsReference = false;
  return true;
}

std::optional<BaseInfo> NameResolver::resolveBase(const NameScope &S, const Item &It) {
  std::optional<BaseInfo> B = lookupBase(S, It.Name);
  if (B && !It.Members.empty() && !resolveMembers(S, It, *B)) return std::nullopt;
  if (B) return B;
  SourceLocation Loc = S.Raw->locationOf(It.Offset);
  if (S.TaskFn && isKnown(S, It.Name))
    AC.error(Loc,
             "'%0' is not a parameter of '%1': a clause names the data the task reaches through its "
             "parameters; pass '%0' (or a pointer to it) as a parameter",
             It.Name, S.TaskFn->getNameAsString());
  else
    AC.error(Loc, "unknown name '%0'%1", It.Name, whereNamesCome(AC, S));
  return std::nullopt;
}

} // namespace gpuss
