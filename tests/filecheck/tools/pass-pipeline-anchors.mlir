// RUN: irkit-opt %s --pass-pipeline='builtin.module(func.func(cse))' | filecheck %s
// RUN: irkit-opt %s -p 'func.func(cse)' | filecheck %s
// RUN: irkit-opt %s -p 'builtin.module(builtin.module(func.func(cse)))' | filecheck %s --check-prefix=INNER
// RUN: irkit-opt %s -p 'builtin.module(func.func(cse))' --mlir-print-ir-after-all -o /dev/null 2>&1 | filecheck %s --check-prefix=DUMP

// func.func(cse) runs on each function directly in the module, as mlir-opt
// does; a function in a nested module is reached by its own anchor.

// CHECK-LABEL: func.func @f
// CHECK:         %[[B:.*]] = arith.addi %a, %a : i32
// CHECK-NEXT:    arith.muli %[[B]], %[[B]] : i32
// CHECK-LABEL: func.func @h
// CHECK:         arith.addi
// CHECK-NEXT:    arith.addi

// INNER-LABEL: func.func @f
// INNER:         arith.addi
// INNER-NEXT:    arith.addi
// INNER-LABEL: func.func @h
// INNER:         %[[B:.*]] = arith.addi %a, %a : i32
// INNER-NEXT:    arith.muli %[[B]], %[[B]] : i32

// DUMP:      // -----// IR Dump After cse ('func.func' operation: @f) //----- //
// DUMP-NEXT: func.func @f(
// DUMP-NOT:  IR Dump
// DUMP-NOT:  builtin.module

func.func @f(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %c = arith.addi %a, %a : i32
  %d = arith.muli %b, %c : i32
  return %d : i32
}
builtin.module @inner {
  func.func @h(%a: i32) -> i32 {
    %b = arith.addi %a, %a : i32
    %c = arith.addi %a, %a : i32
    %d = arith.muli %b, %c : i32
    return %d : i32
  }
}
