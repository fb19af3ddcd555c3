//===- SizeChecks.h - Constant sizes and bounds that cannot be -------------===//
//
// Owns the checks of a directive's constant sizes and bounds. While regions
// are built (RegionBuilder.h), every size or bound of an item that names
// only macros and declarations of the namespaces and classes around (so may
// be a constant) is recorded as a probe; after the analysis, Clang
// evaluates the probes where the directives stand (ConstantProbe.h) and
// values that cannot be are reported: not whole numbers, strings, pointers,
// negative or zero counts, reversed ranges, items that span more than 2^63
// bytes.
//
// Relies on NameLookup for what the names mean and on AnalysisContext for
// diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef GPUSS_TRANSLATOR_SIZECHECKS_H
#define GPUSS_TRANSLATOR_SIZECHECKS_H

#include "AnalysisContext.h"
#include "ConstantProbe.h"
#include "NameLookup.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpuss {

class SizeChecker {
public:
  /// `Evaluate` may be empty: then nothing is checked.
  SizeChecker(AnalysisContext &AC, NameResolver &Names, const ConstantEvaluator &Evaluate)
      : AC(AC), Ctx(AC.Ctx), Names(Names), Evaluate(Evaluate) {}

  /// Records the sizes and bounds of item `It` (base `B`) that may be
  /// constants.
  void probeSizes(const NameScope &S, const Item &It, const BaseInfo &B);

  /// Constant sizes and bounds that cannot be: not whole numbers, strings,
  /// negative or zero counts, reversed ranges, sizes that overflow.
  void checkConstantSizes();

private:
  /// A size or bound of an item that Clang evaluates when it is a constant
  /// (ConstantProbe.h), and what it must be.
  struct SizeCheck {
    enum Role { Count, Index, RangeLo, RangeHi } R = Count;
    const RawDirective *Raw = nullptr;
    unsigned Offset = 0;        ///< of the expression
    std::string Expr;           ///< as written
    std::string ItemText;       ///< the whole item
    bool ClassicExtent = false; ///< StarSs `p[e]`: e elements from p
    uint64_t ElemBytes = 0;     ///< one element of the item, 0 if unknown
    unsigned Item = 0;          ///< numbers the items (for the product of counts)
    unsigned ItemOffset = 0;
  };

  /// Names only macros and declarations of the namespaces and classes: a
  /// constant, maybe.
  bool mayBeConstant(const NameScope &S, const ExprText &E) const;

  AnalysisContext &AC;
  clang::ASTContext &Ctx;
  NameResolver &Names;
  const ConstantEvaluator &Evaluate;
  std::vector<ConstantProbe> Probes;
  std::vector<SizeCheck> SizeChecks; ///< one per probe
  unsigned ProbedItems = 0;
};

} // namespace gpuss

#endif // GPUSS_TRANSLATOR_SIZECHECKS_H
