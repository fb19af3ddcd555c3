//===- AnalysisContext.cpp - What every part of the analysis shares --------===//
#include "AnalysisContext.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/Lex/Lexer.h"

#include <cctype>

namespace gpuss {

using clang::SourceLocation;

namespace {

bool isConditionalDirective(llvm::StringRef Rest) {
  Rest = Rest.ltrim(" \t");
  for (llvm::StringRef Name : {"ifdef", "ifndef", "if", "elifdef", "elifndef", "elif", "else", "endif"})
    if (Rest.starts_with(Name) && (Rest.size() == Name.size() || !std::isalnum(Rest[Name.size()])))
      return true;
  return false;
}

} // namespace

AnalysisContext::AnalysisContext(clang::ASTContext &Ctx, const std::vector<RawDirective> &Raws,
                                 const StringizedTokens &Stringized, const ASTFacts &Facts, EditPlan &Plan)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), Diags(Ctx.getDiagnostics()), Raws(Raws), Stringized(Stringized),
      Facts(Facts), Plan(Plan) {
  Opts.CPlusPlus = Ctx.getLangOpts().CPlusPlus;
}

bool AnalysisContext::onlyTrivia(SourceLocation From, SourceLocation To) const {
  From = fileLoc(From);
  To = fileLoc(To);
  auto [FromFile, FromOff] = SM.getDecomposedLoc(From);
  auto [ToFile, ToOff] = SM.getDecomposedLoc(To);
  if (FromFile != ToFile || FromOff > ToOff) return false;
  llvm::StringRef Buffer = SM.getBufferData(FromFile);
  for (unsigned I = FromOff; I < ToOff;) {
    char C = Buffer[I];
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' || C == '\v') {
      ++I;
    } else if (C == '/' && I + 1 < ToOff && Buffer[I + 1] == '/') {
      while (I < ToOff && Buffer[I] != '\n')
        ++I;
    } else if (C == '/' && I + 1 < ToOff && Buffer[I + 1] == '*') {
      size_t End = Buffer.find("*/", I + 2);
      if (End == llvm::StringRef::npos || End + 2 > ToOff) return false;
      I = static_cast<unsigned>(End + 2);
    } else if (C == '\\' && I + 1 < ToOff && (Buffer[I + 1] == '\n' || Buffer[I + 1] == '\r')) {
      I += 2;
    } else if (C == '#' && isConditionalDirective(Buffer.substr(I + 1))) {
      // #if/#ifdef/#else/#endif around a directive (e.g. a target only
      // for CUDA builds): skip the line, with its continuations.
      while (I < ToOff && Buffer[I] != '\n')
        I += (Buffer[I] == '\\' && I + 1 < ToOff) ? 2 : 1;
    } else {
      return false;
    }
  }
  return true;
}

std::string AnalysisContext::fileName(SourceLocation L) const {
  clang::PresumedLoc P = SM.getPresumedLoc(fileLoc(L));
  return P.isValid() ? P.getFilename() : "";
}
unsigned AnalysisContext::lineOf(SourceLocation L) const {
  clang::PresumedLoc P = SM.getPresumedLoc(fileLoc(L));
  return P.isValid() ? P.getLine() : 0;
}

std::string AnalysisContext::sourceText(clang::CharSourceRange R) const {
  return clang::Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
}

std::string AnalysisContext::macroNameAt(SourceLocation Loc) const {
  std::string Name;
  while (Loc.isMacroID()) {
    llvm::StringRef N = clang::Lexer::getImmediateMacroName(Loc, SM, Ctx.getLangOpts());
    if (!N.empty()) Name = N.str();
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return Name;
}

std::string AnalysisContext::pinOf(const RawDirective &R) const {
  std::string Line = genLineDirective(lineOf(R.Begin), fileName(R.Begin));
  return Line.substr(0, Line.size() - 1);
}

clang::PrintingPolicy AnalysisContext::policy() const {
  clang::PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.FullyQualifiedName = true;
  Policy.SuppressScope = false;
  Policy.SuppressUnwrittenScope = true;
  Policy.Bool = Ctx.getLangOpts().CPlusPlus || Ctx.getLangOpts().C23;
  return Policy;
}

std::string AnalysisContext::printType(clang::QualType T, const std::string &Name) const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  T.print(OS, policy(), Name);
  return S;
}

std::string AnalysisContext::genType(clang::QualType T, const std::string &Name) const {
  if (Ctx.getLangOpts().CPlusPlus)
    T = clang::TypeName::getFullyQualifiedType(T, Ctx, /*WithGlobalNsPrefix=*/true);
  return printType(T, Name);
}

std::string AnalysisContext::printExpr(const clang::Expr *E) const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  E->printPretty(OS, nullptr, policy());
  return S;
}

std::string AnalysisContext::scopeOf(const clang::DeclContext *DC) const {
  if (!Ctx.getLangOpts().CPlusPlus) return "";
  std::string S;
  for (; DC && !DC->isTranslationUnit(); DC = DC->getParent())
    if (const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(DC); NS && !NS->isAnonymousNamespace())
      S = NS->getNameAsString() + "::" + S;
    else if (const auto *Class = llvm::dyn_cast<clang::CXXRecordDecl>(DC))
      S = Class->getNameAsString() + "::" + S;
  return "::" + S;
}

const clang::FunctionDecl *AnalysisContext::functionAround(SourceLocation L) const {
  L = fileLoc(L);
  const clang::FunctionDecl *Best = nullptr;
  for (const clang::FunctionDecl *FD : Facts.Definitions) {
    const clang::Stmt *Body = FD->getBody();
    if (!Body) continue;
    SourceLocation B = fileLoc(Body->getBeginLoc()), E = fileLoc(Body->getEndLoc());
    if (SM.getFileID(B) != SM.getFileID(L)) continue;
    if (SM.getFileOffset(B) < SM.getFileOffset(L) && SM.getFileOffset(L) < SM.getFileOffset(E)) Best = FD;
  }
  return Best;
}

bool AnalysisContext::replaceDirective(const RawDirective &R, const std::string &Code, bool Headers) {
  auto Rewritable = [&](SourceLocation L) { return Headers ? translatable(L) : inMainFile(L); };
  if (R.FromOperator) {
    // `_Pragma("css ...")`, or a macro whose whole expansion it is.
    SourceLocation Begin = fileLoc(R.Begin);
    if (!R.Replaceable || !Rewritable(Begin) || !R.End.isFileID()) return false;
    Plan.Replacements.push_back({clang::CharSourceRange::getCharRange(Begin, R.End),
                                 (Code.empty() ? "" : Code + " ") + genComment("#pragma css " + R.Text)});
    return true;
  }
  if (!Rewritable(R.Begin) || !R.End.isFileID()) return false;
  clang::CharSourceRange Range = clang::CharSourceRange::getCharRange(R.Begin, R.End);
  std::string Text = sourceText(Range);
  if (Text.empty() || Text[0] != '#') return false;
  Plan.Replacements.push_back({Range, (Code.empty() ? "" : Code + " ") + genComment(Text)});
  return true;
}

void AnalysisContext::commentOut(const ParsedDirective *A, const ParsedDirective *B) {
  replaceDirective(*A->Raw, "");
  if (B && B->Raw != A->Raw) replaceDirective(*B->Raw, "");
}

Direction directionOf(ClauseKind K) {
  switch (K) {
  case ClauseKind::Input:
  case ClauseKind::CopyIn:
    return Direction::In;
  case ClauseKind::Output:
  case ClauseKind::CopyOut:
    return Direction::Out;
  default:
    return Direction::InOut;
  }
}

ClauseKind dataClauseOf(Direction D) {
  switch (D) {
  case Direction::In:
    return ClauseKind::Input;
  case Direction::Out:
    return ClauseKind::Output;
  case Direction::InOut:
    return ClauseKind::Inout;
  }
  return ClauseKind::Inout;
}

bool isScalar(clang::QualType T) {
  // A function pointer is a value passed by value: what it points to is
  // code, not data a task could depend on (SMPSs programs name such
  // arguments in input(...), as their other by-value ones).
  return (!T->isPointerType() || T->isFunctionPointerType()) && !T->isArrayType();
}

bool hasKnownSize(clang::QualType T) {
  if (T->isVoidType() || T->isFunctionType()) return false;
  if (!T->isIncompleteType()) return true;
  if (const auto *Spec =
          llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl()))
    return Spec->getSpecializedTemplate()->getTemplatedDecl()->hasDefinition();
  return false;
}

const clang::ValueDecl *argVariable(const clang::Expr *Arg, bool *Storage) {
  bool Address = false;
  const clang::Expr *E = Arg;
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cast = llvm::dyn_cast<clang::ExplicitCastExpr>(E)) {
      E = Cast->getSubExpr();
    } else if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E);
               U && U->getOpcode() == clang::UO_AddrOf) {
      Address = true;
      E = U->getSubExpr();
    } else if (const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(E);
               Sub && (Address || Sub->getType()->isArrayType())) {
      E = Sub->getBase();
    } else if (const auto *Member = llvm::dyn_cast<clang::MemberExpr>(E);
               Member && !Member->isArrow() && (Address || Member->getType()->isArrayType())) {
      E = Member->getBase();
    } else if (const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(E);
               Bin && (Bin->getOpcode() == clang::BO_Add || Bin->getOpcode() == clang::BO_Sub)) {
      E = Bin->getLHS()->getType()->isPointerType()   ? Bin->getLHS()
          : Bin->getRHS()->getType()->isPointerType() ? Bin->getRHS()
                                                      : nullptr;
    } else {
      break;
    }
  }
  const clang::ValueDecl *D = nullptr;
  if (const auto *DR = llvm::dyn_cast_or_null<clang::DeclRefExpr>(E)) D = DR->getDecl();
  if (const auto *Member = llvm::dyn_cast_or_null<clang::MemberExpr>(E);
      Member && llvm::isa<clang::CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
    D = Member->getMemberDecl();
  if (Storage && D) *Storage = Address || D->getType()->isArrayType();
  return D;
}

std::string sanitizeComment(const std::string &S) {
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    Out += S[I];
    if (S[I] == '*' && I + 1 < S.size() && S[I + 1] == '/') Out += ' ';
  }
  return Out;
}

} // namespace gpuss
