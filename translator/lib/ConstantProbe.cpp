//===- ConstantProbe.cpp - Evaluate directive expressions with Clang -------===//
#include "ConstantProbe.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>

namespace gpuss {
namespace {

constexpr llvm::StringLiteral ProbePrefix = "__css_probe_";

/// Reads the value of every probe declaration of the second parse.
class ProbeReader : public clang::RecursiveASTVisitor<ProbeReader> {
public:
  ProbeReader(clang::ASTContext &Ctx, std::vector<ConstantValue> &Values) : Ctx(Ctx), Values(Values) {}

  bool VisitVarDecl(clang::VarDecl *VD) {
    llvm::StringRef Name = VD->getName();
    unsigned Index = 0;
    if (!Name.consume_front(ProbePrefix) || Name.getAsInteger(10, Index) || Index >= Values.size())
      return true;
    const clang::Expr *Init = VD->getInit();
    if (VD->isInvalidDecl() || !Init || Init->isValueDependent() || Init->containsErrors()) return true;
    ConstantValue &V = Values[Index];
    clang::QualType T = VD->getType();
    if (llvm::isa<clang::StringLiteral>(Init->IgnoreParenImpCasts())) {
      V.K = ConstantValue::String;
    } else if (T->isPointerType() || T->isArrayType()) {
      V.K = ConstantValue::Pointer;
    } else if (T->isIntegralOrEnumerationType()) {
      clang::Expr::EvalResult R;
      if (Init->EvaluateAsInt(R, Ctx) && !R.HasSideEffects) {
        V.K = ConstantValue::Integer;
        V.Int = R.Val.getInt();
      }
    } else if (T->isRealFloatingType()) {
      llvm::APFloat F(0.0);
      if (Init->EvaluateAsFloat(F, Ctx)) {
        bool Lost = false;
        F.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &Lost);
        V.K = ConstantValue::Floating;
        V.Float = F.convertToDouble();
      }
    }
    return true;
  }

private:
  clang::ASTContext &Ctx;
  std::vector<ConstantValue> &Values;
};

class ProbeConsumer : public clang::ASTConsumer {
public:
  explicit ProbeConsumer(std::vector<ConstantValue> &Values) : Values(Values) {}
  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    ProbeReader(Ctx, Values).TraverseDecl(Ctx.getTranslationUnitDecl());
  }

private:
  std::vector<ConstantValue> &Values;
};

class ProbeAction : public clang::ASTFrontendAction {
public:
  explicit ProbeAction(std::vector<ConstantValue> &Values) : Values(Values) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &, llvm::StringRef) override {
    return std::make_unique<ProbeConsumer>(Values);
  }

private:
  std::vector<ConstantValue> &Values;
};

std::vector<ConstantValue> evaluate(clang::CompilerInstance &CI, const std::vector<ConstantProbe> &Probes) {
  std::vector<ConstantValue> Values(Probes.size());
  if (Probes.empty()) return Values;
  clang::SourceManager &SM = CI.getSourceManager();
  bool CPlusPlus = CI.getLangOpts().CPlusPlus;
  // Each probe goes on a line of its own after the end of its directive's
  // line: `static constexpr auto __css_probe_N = (e);` (C:
  // `static __auto_type`), valid at namespace, class and block scope.
  std::map<clang::FileID, std::map<unsigned, std::string>> Insertions;
  for (size_t I = 0; I < Probes.size(); ++I) {
    clang::SourceLocation Loc = SM.getExpansionLoc(Probes[I].After);
    auto [File, Offset] = SM.getDecomposedLoc(Loc);
    if (File.isInvalid() || !SM.getFileEntryRefForID(File)) continue;
    llvm::StringRef Buffer = SM.getBufferData(File);
    while (Offset < Buffer.size() && Buffer[Offset] != '\n')
      ++Offset;
    if (Offset < Buffer.size()) ++Offset;
    Insertions[File][Offset] += std::string(CPlusPlus ? "static constexpr auto " : "static __auto_type ") +
                                ProbePrefix.str() + std::to_string(I) + " = (" + Probes[I].Text + ");\n";
  }
  auto Invocation = std::make_shared<clang::CompilerInvocation>(CI.getInvocation());
  Invocation->getDependencyOutputOpts() = clang::DependencyOutputOptions();
  Invocation->getPreprocessorOpts().RetainRemappedFileBuffers = false;
  for (auto &[File, AtOffsets] : Insertions) {
    llvm::StringRef Buffer = SM.getBufferData(File);
    std::string Text;
    unsigned At = 0;
    for (auto &[Offset, Probe] : AtOffsets) {
      Text += Buffer.slice(At, Offset).str() + Probe;
      At = Offset;
    }
    Text += Buffer.substr(At).str();
    llvm::StringRef Name = SM.getFileEntryRefForID(File)->getName();
    Invocation->getPreprocessorOpts().addRemappedFile(
        Name, llvm::MemoryBuffer::getMemBufferCopy(Text, Name).release());
  }
  clang::CompilerInstance Probe(CI.getPCHContainerOperations());
  Probe.setInvocation(Invocation);
  Probe.createDiagnostics(new clang::IgnoringDiagConsumer, /*ShouldOwnClient=*/true);
  ProbeAction Action(Values);
  Probe.ExecuteAction(Action);
  return Values;
}

} // namespace

ConstantEvaluator makeConstantEvaluator(clang::CompilerInstance &CI) {
  return [&CI](const std::vector<ConstantProbe> &Probes) { return evaluate(CI, Probes); };
}

} // namespace gpuss
