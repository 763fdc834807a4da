// RUN: not irkit-opt %s --split-input-file 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=ERR < %t.err

// As mlir-opt: every chunk runs, a bad one is reported and leaves an empty
// place between the markers, the good ones are printed.

// CHECK-LABEL: func.func @first
// CHECK:       // -----
// CHECK-NEXT:  // -----
// CHECK-NEXT:  builtin.module {
// CHECK-NEXT:    func.func @last

// ERR: split-input-file.mlir:21:3: error: 'func.return' op Expected arguments to have the same types as the function output types
// ERR-NOT: error

func.func @first(%x: i32) -> i32 {
  return %x : i32
}
// -----
func.func @bad(%x: i32) -> i64 {
  return %x : i32
}
// -----
func.func @last(%x: i32) -> i32 {
  return %x : i32
}
