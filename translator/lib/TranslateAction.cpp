//===- TranslateAction.cpp - The frontend action of gpuss-translate --------===//
#include "TranslateAction.h"

#include "CodeGen.h"
#include "HeaderInlining.h"
#include "PragmaCapture.h"
#include "StringizedArgs.h"
#include "TaskAnalysis.h"
#include "TaskVisitor.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Rewrite/Core/Rewriter.h"

namespace gpuss {
namespace {

class TranslateConsumer : public clang::ASTConsumer {
public:
  TranslateConsumer(const std::vector<RawDirective> &Directives, const StringizedTokens &Stringized,
                    const std::vector<Inclusion> &Inclusions, TranslationResult &Result,
                    clang::CompilerInstance &CI)
      : Directives(Directives), Stringized(Stringized), Inclusions(Inclusions), Result(Result), CI(CI) {}

  void HandleTranslationUnit(clang::ASTContext &Context) override {
    clang::SourceManager &SM = Context.getSourceManager();
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      Result.Dependencies.push_back(It->first.getName().str());
    if (Context.getDiagnostics().hasErrorOccurred()) {
      Result.ParseFailed = true;
      return;
    }
    ASTFacts Facts = collectFacts(Context);
    EditPlan Plan;
    if (!analyzeAndPlan(Context, Directives, Stringized, Facts, Plan, makeConstantEvaluator(CI))) return;
    clang::FileID Main = SM.getMainFileID();
    if (Plan.Insertions.empty() && Plan.Replacements.empty() && !Plan.UsesRuntime) {
      Result.Output = SM.getBufferData(Main).str();
      Result.Changed = false;
      return;
    }
    clang::Rewriter Rewrite(SM, Context.getLangOpts());
    // An edit that cannot be made would leave a task call an ordinary call
    // (a silent race) or a directive unrewritten: stop instead.
    bool EditFailed = false;
    for (const EditPlan::Replacement &R : Plan.Replacements)
      EditFailed |= R.Range.isInvalid() || Rewrite.ReplaceText(R.Range, R.Text);
    for (const EditPlan::Insertion &I : Plan.Insertions)
      EditFailed |= Rewrite.InsertText(I.Loc, I.Text, /*InsertAfter=*/true, /*indentNewLines=*/false);
    if (EditFailed) {
      clang::DiagnosticsEngine &Diags = Context.getDiagnostics();
      Diags.Report(
          SM.getLocForStartOfFile(Main),
          Diags.getCustomDiagID(clang::DiagnosticsEngine::Error,
                                "internal error: gpuss-translate could not rewrite part of this file; "
                                "please report it with the source"));
      return;
    }
    if (!inlineTranslatedHeaders(Rewrite, Inclusions, Context.getDiagnostics())) return;
    std::string File = SM.getFileEntryRefForID(Main)->getName().str();
    clang::PresumedLoc Start = SM.getPresumedLoc(SM.getLocForStartOfFile(Main));
    if (Start.isValid()) File = Start.getFilename();
    Rewrite.InsertText(SM.getLocForStartOfFile(Main), genPrologue(File), /*InsertAfter=*/false);
    const clang::RewriteBuffer *Buffer = Rewrite.getRewriteBufferFor(Main);
    Result.Output = Buffer ? std::string(Buffer->begin(), Buffer->end()) : SM.getBufferData(Main).str();
    Result.Changed = true;
  }

private:
  const std::vector<RawDirective> &Directives;
  const StringizedTokens &Stringized;
  const std::vector<Inclusion> &Inclusions;
  TranslationResult &Result;
  clang::CompilerInstance &CI;
};

class TranslateAction : public clang::ASTFrontendAction {
public:
  explicit TranslateAction(TranslationResult &Result) : Result(Result) {}

  bool BeginSourceFileAction(clang::CompilerInstance &CI) override {
    Handler = std::make_unique<CssPragmaHandler>(Directives);
    CI.getPreprocessor().AddPragmaHandler(Handler.get());
    CI.getPreprocessor().AddPragmaHandler(OssWarner.get());
    CI.getPreprocessor().addPPCallbacks(std::make_unique<InclusionRecorder>(Inclusions));
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<StringizedTokenRecorder>(CI.getSourceManager(), Stringized));
    // OmpSs' `#pragma omp task ...`; under -fopenmp the directives are
    // OpenMP's, and Clang's.
    if (!CI.getLangOpts().OpenMP)
      CI.getPreprocessor().addPPCallbacks(
          std::make_unique<OmpPragmaRecorder>(CI.getPreprocessor(), Directives));
    return true;
  }

  void EndSourceFileAction() override {
    getCompilerInstance().getPreprocessor().RemovePragmaHandler(Handler.get());
    getCompilerInstance().getPreprocessor().RemovePragmaHandler(OssWarner.get());
  }

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        llvm::StringRef) override {
    return std::make_unique<TranslateConsumer>(Directives, Stringized, Inclusions, Result, CI);
  }

private:
  TranslationResult &Result;
  std::vector<RawDirective> Directives;
  StringizedTokens Stringized;
  std::vector<Inclusion> Inclusions;
  std::unique_ptr<CssPragmaHandler> Handler;
  std::unique_ptr<OssPragmaWarner> OssWarner = std::make_unique<OssPragmaWarner>();
};

class TranslateActionFactory : public clang::tooling::FrontendActionFactory {
public:
  explicit TranslateActionFactory(TranslationResult &Result) : Result(Result) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<TranslateAction>(Result);
  }

private:
  TranslationResult &Result;
};

} // namespace

std::unique_ptr<clang::tooling::FrontendActionFactory> newTranslateActionFactory(TranslationResult &Result) {
  return std::make_unique<TranslateActionFactory>(Result);
}

} // namespace gpuss
