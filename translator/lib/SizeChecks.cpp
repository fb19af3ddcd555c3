//===- SizeChecks.cpp - Constant sizes and bounds that cannot be -----------===//
#include "SizeChecks.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/SmallString.h"

#include <map>
#include <set>

namespace gpuss {

using clang::SourceLocation;

namespace {

std::string decimal(const llvm::APSInt &N) {
  llvm::SmallString<32> S;
  N.toString(S, 10);
  return std::string(S.str());
}

} // namespace

bool SizeChecker::mayBeConstant(const NameScope &S, const ExprText &E) const {
  if (E.Text.empty()) return false;
  for (const ExprName &N : E.Names) {
    NameMeaning M = Names.resolveName(S, N.Name);
    if (M.K != NameMeaning::Macro && M.K != NameMeaning::Scoped) return false;
  }
  return true;
}

void SizeChecker::probeSizes(const NameScope &S, const Item &It, const BaseInfo &B) {
  if (!Evaluate) return;
  unsigned ItemId = ProbedItems++;
  uint64_t ElemBytes = 0;
  clang::QualType T = B.Type;
  if (T->isPointerType())
    T = T->getPointeeType();
  else if (const clang::ArrayType *AT = Ctx.getAsArrayType(T))
    T = AT->getElementType();
  T = Ctx.getBaseElementType(T);
  if (!T->isDependentType() && !T->isIncompleteType() && !T->isFunctionType() && !T->isVoidType())
    ElemBytes = static_cast<uint64_t>(Ctx.getTypeSizeInChars(T).getQuantity());
  auto add = [&](const ExprText &E, SizeCheck::Role Role, bool Classic = false) {
    if (!mayBeConstant(S, E)) return;
    SizeCheck C;
    C.R = Role;
    C.Raw = S.Raw;
    C.Offset = E.Offset;
    C.Expr = E.Text;
    C.ItemText = It.Text;
    C.ClassicExtent = Classic;
    C.ElemBytes = ElemBytes;
    C.Item = ItemId;
    C.ItemOffset = It.Begin;
    SizeChecks.push_back(C);
    Probes.push_back({S.Raw->End, E.Text});
  };
  auto part = [&](const Dimension &D, bool ExtentIsIndex) {
    switch (D.K) {
    case Dimension::Extent:
      add(D.First, ExtentIsIndex ? SizeCheck::Index : SizeCheck::Count, !ExtentIsIndex);
      break;
    case Dimension::Index:
      add(D.First, SizeCheck::Index);
      break;
    case Dimension::Length:
      add(D.First, SizeCheck::Index);
      add(D.Second, SizeCheck::Count);
      break;
    case Dimension::Range:
      if (mayBeConstant(S, D.First) && mayBeConstant(S, D.Second)) {
        add(D.First, SizeCheck::RangeLo);
        add(D.Second, SizeCheck::RangeHi);
      } else {
        add(D.First, SizeCheck::Index);
        add(D.Second, SizeCheck::Index);
      }
      break;
    case Dimension::Whole:
      break;
    }
  };
  for (const ExprText &E : It.Shape)
    add(E, SizeCheck::Count);
  for (const Dimension &D : It.Dims)
    part(D, It.Deref || !It.Shape.empty());
  for (const Dimension &D : It.Regions)
    part(D, true);
}

void SizeChecker::checkConstantSizes() {
  if (Probes.empty()) return;
  std::vector<ConstantValue> Values = Evaluate(Probes);
  if (Values.size() != Probes.size()) return;
  std::map<unsigned, llvm::APInt> Bytes; // per item: the product of its constant counts, in bytes
  std::set<unsigned> Reported;
  for (size_t I = 0; I < SizeChecks.size(); ++I) {
    const SizeCheck &C = SizeChecks[I];
    const ConstantValue &V = Values[I];
    SourceLocation Loc = C.Raw->locationOf(C.Offset);
    switch (V.K) {
    case ConstantValue::Unknown:
      continue;
    case ConstantValue::String:
      AC.error(Loc, "'%0' in '%1' is a string, not a number of elements", C.Expr, C.ItemText);
      continue;
    case ConstantValue::Pointer:
      AC.error(Loc, "'%0' in '%1' is a pointer, not a number of elements", C.Expr, C.ItemText);
      continue;
    case ConstantValue::Floating: {
      std::string Value = std::to_string(V.Float);
      AC.error(Loc, "'%0' in '%1' is not a whole number (%2): sizes and bounds count elements", C.Expr,
               C.ItemText, Value.substr(0, Value.find_last_not_of('0') + 1));
      continue;
    }
    case ConstantValue::Integer:
      break;
    }
    const llvm::APSInt &N = V.Int;
    if (C.R == SizeCheck::RangeHi && I > 0 && Values[I - 1].K == ConstantValue::Integer &&
        llvm::APSInt::compareValues(N, Values[I - 1].Int) < 0) {
      AC.error(SizeChecks[I - 1].Raw->locationOf(SizeChecks[I - 1].Offset),
               "'%0:%1' in '%2' ends before it starts (%3 > %4): in 'lo:hi' both bounds are included, so hi "
               "must "
               "not be less than lo",
               SizeChecks[I - 1].Expr, C.Expr, C.ItemText, decimal(Values[I - 1].Int), decimal(N));
      continue;
    }
    if (C.R != SizeCheck::Count) continue;
    if (N.isSigned() && N.isNegative()) {
      AC.error(Loc, "'%0' in '%1' is negative (%2): it counts the elements of the item", C.Expr, C.ItemText,
               decimal(N));
      continue;
    }
    if (N.isZero()) {
      if (C.ClassicExtent)
        AC.error(Loc,
                 "'%0' in '%1' is 0, so the item names no element: in GPUSs 'x[n]' is the n elements from x "
                 "(to name element i, write 'x[i;1]')",
                 C.Expr, C.ItemText);
      else
        AC.error(Loc, "'%0' in '%1' is 0, so the item names no element", C.Expr, C.ItemText);
      continue;
    }
    if (!C.ElemBytes || Reported.count(C.Item)) continue;
    llvm::APInt Count = N.zext(192), &Total = Bytes[C.Item];
    if (Total.getBitWidth() == 1) Total = llvm::APInt(192, C.ElemBytes);
    Total *= Count.zextOrTrunc(192);
    if (Total.getActiveBits() > 63) {
      Reported.insert(C.Item);
      AC.error(
          Loc,
          "'%1' is too large: with '%0' it spans more than 2^63 bytes (elements of %2 bytes); a size this "
          "large wraps around when computed, and the task would get a region of another size",
          C.Expr, C.ItemText, std::to_string(C.ElemBytes));
    }
  }
}

} // namespace gpuss
