// RUN: irkit-opt %s | filecheck %s
// RUN: irkit-opt - -o - < %s | filecheck %s
// RUN: irkit-opt -p 'builtin.module(canonicalize)' < /dev/null | filecheck %s

// Input without ops is an empty module, as in mlir-opt.

// CHECK:      builtin.module {
// CHECK-NEXT: }
