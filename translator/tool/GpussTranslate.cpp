//===- GpussTranslate.cpp - gpuss-translate: the driver ----------------------===//
//
// gpuss-translate FILE [-o OUT] [--depfile DEP] -- COMPILER FLAGS
//
// Translates one C, C++ or CUDA source annotated with `#pragma css` into a
// source that calls libgpuss. The library does the work; this file only sets
// up the Clang invocation and writes the result (nothing on error).
//
// Exit status: 0 translated; 1 errors in the directives (or an output that
// cannot be written); 2 a bad command line; 3 the source does not compile
// with Clang (the errors are Clang's; the directives were not read).
//
//===----------------------------------------------------------------------===//
#include "TranslateAction.h"
#include "gpuss_version.h"

#include "clang/Basic/Version.h"
#include "clang/Driver/Options.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <string>
#include <vector>

#ifndef GPUSS_CLANG_RESOURCE_DIR
#define GPUSS_CLANG_RESOURCE_DIR ""
#endif
#ifndef GPUSS_SOURCE_INCLUDE_DIR
#define GPUSS_SOURCE_INCLUDE_DIR ""
#endif
#ifndef GPUSS_GENERATED_INCLUDE_DIR
#define GPUSS_GENERATED_INCLUDE_DIR ""
#endif
#ifndef GPUSS_SOURCE_CUDA_COMPAT_DIR
#define GPUSS_SOURCE_CUDA_COMPAT_DIR ""
#endif
#ifndef GPUSS_CUDA_PATH
#define GPUSS_CUDA_PATH "/usr/local/cuda"
#endif

namespace {

llvm::cl::OptionCategory Category("gpuss-translate options");
llvm::cl::opt<std::string> OutputFile("o",
                                      llvm::cl::desc("Write the translated source here (default: stdout)"),
                                      llvm::cl::value_desc("file"), llvm::cl::cat(Category));
llvm::cl::opt<std::string> DepFile("depfile",
                                   llvm::cl::desc("Write a Make-style dependency file for the output"),
                                   llvm::cl::value_desc("file"), llvm::cl::cat(Category));
llvm::cl::extrahelp MoreHelp(R"(
Translates a source with #pragma css directives (GPUSs) into plain C, C++ or
CUDA that calls libgpuss. Give the compiler flags the source needs after --:
  gpuss-translate cholesky.c -o cholesky.gpuss.c -- -I include -DTS=64
Sources with no directives come out unchanged. On error nothing is written.
Exit status: 0 translated, 1 errors in the directives, 2 a bad command line,
3 the source does not compile with Clang (its errors are shown).
)");

/// Clang 19 makes these errors by default in C; gcc only warns. The
/// translator is as lenient as gcc: the compiler that builds the translated
/// source still applies the user's own -Werror choices.
const char *const LenientFlags[] = {
    "-Wno-error=implicit-function-declaration", "-Wno-error=implicit-int", "-Wno-error=int-conversion",
    "-Wno-error=incompatible-function-pointer-types", "-Wno-error=return-mismatch"};

/// The first existing directory of `Candidates`.
std::string firstDir(std::initializer_list<std::string> Candidates) {
  for (const std::string &C : Candidates)
    if (!C.empty() && llvm::sys::fs::is_directory(C)) return C;
  return "";
}

/// The first of `Candidates` that holds `File`.
std::string firstDirWith(llvm::StringRef File, std::initializer_list<std::string> Candidates) {
  for (const std::string &C : Candidates)
    if (!C.empty() && llvm::sys::fs::exists(C + "/" + File)) return C;
  return "";
}

/// Drops the options Clang's driver does not know, such as gcc's
/// -fopt-info or -fstack-reuse=: they tune code generation, which the
/// translator does not do, and Clang would report each as an error.
clang::tooling::ArgumentsAdjuster dropUnknownOptions() {
  return [](const clang::tooling::CommandLineArguments &Args, llvm::StringRef) {
    std::vector<const char *> Argv;
    for (size_t I = 1; I < Args.size(); ++I)
      Argv.push_back(Args[I].c_str());
    unsigned MissingIndex = 0, MissingCount = 0;
    llvm::opt::InputArgList Parsed = clang::driver::getDriverOptTable().ParseArgs(
        Argv, MissingIndex, MissingCount, llvm::opt::Visibility(clang::driver::options::ClangOption));
    std::set<unsigned> Unknown;
    for (const llvm::opt::Arg *A : Parsed.filtered(clang::driver::options::OPT_UNKNOWN))
      Unknown.insert(A->getIndex() + 1);
    clang::tooling::CommandLineArguments Kept;
    for (size_t I = 0; I < Args.size(); ++I)
      if (!Unknown.count(I)) Kept.push_back(Args[I]);
    return Kept;
  };
}

bool isCuda(llvm::StringRef File) {
  return File.ends_with(".cu") || File.ends_with(".cuh");
}

} // namespace

int main(int argc, const char **argv) {
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "gpuss-translate (GPUSs) " GPUSS_VERSION "\n" << clang::getClangFullVersion() << "\n";
  });
  auto Parser = clang::tooling::CommonOptionsParser::create(argc, argv, Category, llvm::cl::OneOrMore);
  if (!Parser) {
    llvm::errs() << Parser.takeError();
    return 2;
  }
  const std::vector<std::string> &Sources = Parser->getSourcePathList();
  if (Sources.size() != 1) {
    llvm::errs() << "gpuss-translate: give exactly one source file\n";
    return 2;
  }
  std::string Exe = llvm::sys::fs::getMainExecutable(argv[0], reinterpret_cast<void *>(&main));
  llvm::StringRef Bin = llvm::sys::path::parent_path(Exe);
  std::string Prefix = llvm::sys::path::parent_path(Bin).str();
  // gpuss.h and gpuss_version.h: together when installed; in the source and
  // build trees when run from a build.
  std::string IncludeDir =
      firstDirWith("gpuss.h", {Prefix + "/include/gpuss", Prefix + "/include", GPUSS_SOURCE_INCLUDE_DIR});
  std::string VersionIncludeDir = firstDirWith(
      "gpuss_version.h", {Prefix + "/include/gpuss", Prefix + "/include", GPUSS_GENERATED_INCLUDE_DIR});
  std::string CompatDir = firstDir({Prefix + "/share/gpuss/cuda-compat", GPUSS_SOURCE_CUDA_COMPAT_DIR});
  if (const char *Env = std::getenv("GPUSS_CUDA_COMPAT_DIR")) CompatDir = Env;
  std::string CudaPath = GPUSS_CUDA_PATH;
  if (const char *Env = std::getenv("CUDA_PATH")) CudaPath = Env;

  clang::tooling::ClangTool Tool(Parser->getCompilations(), Sources);
  Tool.appendArgumentsAdjuster(dropUnknownOptions());
  std::vector<std::string> Extra = {"-w", "-Wno-unknown-pragmas"};
  Extra.insert(Extra.end(), std::begin(LenientFlags), std::end(LenientFlags));
  if (std::string(GPUSS_CLANG_RESOURCE_DIR).size())
    Extra.push_back("-resource-dir=" GPUSS_CLANG_RESOURCE_DIR);
  if (!IncludeDir.empty()) Extra.push_back("-idirafter" + IncludeDir);
  if (!VersionIncludeDir.empty() && VersionIncludeDir != IncludeDir)
    Extra.push_back("-idirafter" + VersionIncludeDir);
  if (isCuda(Sources.front())) {
    Extra.insert(Extra.end(),
                 {"--cuda-host-only", "--cuda-path=" + CudaPath, "-nocudalib", "--no-cuda-version-check"});
    if (!CompatDir.empty()) Extra.insert(Extra.end(), {"-idirafter", CompatDir});
  }
  Tool.appendArgumentsAdjuster(
      clang::tooling::getInsertArgumentAdjuster(Extra, clang::tooling::ArgumentInsertPosition::END));

  gpuss::TranslationResult Result;
  auto Factory = gpuss::newTranslateActionFactory(Result);
  int Status = Tool.run(Factory.get());
  if (Status != 0) {
    if (!OutputFile.empty()) llvm::sys::fs::remove(OutputFile);
    return Result.ParseFailed ? 3 : 1;
  }

  if (OutputFile.empty() || OutputFile == "-") {
    llvm::outs() << Result.Output;
  } else {
    std::error_code EC;
    llvm::raw_fd_ostream OS(OutputFile, EC, llvm::sys::fs::OF_None);
    if (EC) {
      llvm::errs() << "gpuss-translate: cannot write '" << OutputFile << "': " << EC.message() << "\n";
      return 1;
    }
    OS << Result.Output;
  }
  if (!DepFile.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(DepFile, EC, llvm::sys::fs::OF_Text);
    if (EC) {
      llvm::errs() << "gpuss-translate: cannot write '" << DepFile << "': " << EC.message() << "\n";
      return 1;
    }
    auto escape = [](llvm::StringRef S) {
      std::string Out;
      for (char C : S) {
        if (C == ' ' || C == '#') Out += '\\';
        if (C == '$') Out += '$';
        Out += C;
      }
      return Out;
    };
    OS << escape(OutputFile.empty() ? "-" : OutputFile.getValue()) << ":";
    for (const std::string &D : Result.Dependencies)
      if (!D.empty() && D[0] != '<') OS << " \\\n  " << escape(D);
    OS << "\n";
  }
  return 0;
}
