// Copy elision and in-place reuse keep one BufferLiveness valid by updating it in place (the one
// merge mechanism, BufferLiveness::mergeInto): after both ran, it knows every root of a fresh
// analysis with at least its aliases and reasons, and keeps every interference of the fresh one.
// RUN: mplan-opt %S/../Transforms/elide-copies.mlir --split-input-file --mplan-capture-buffers --mplan-fold-views --test-mplan-rewrites-keep-liveness -o /dev/null
// RUN: mplan-opt %S/../Transforms/elide-copies-negative.mlir --split-input-file --mplan-capture-buffers --mplan-fold-views --test-mplan-rewrites-keep-liveness -o /dev/null
// RUN: mplan-opt %S/../Transforms/elide-copies-peak.mlir --split-input-file --mplan-capture-buffers --mplan-fold-views --test-mplan-rewrites-keep-liveness -o /dev/null
// RUN: mplan-opt %S/../Transforms/inplace.mlir --split-input-file --mplan-capture-buffers --test-mplan-rewrites-keep-liveness -o /dev/null
// After the rewrites the renumbered analysis (the one the later steps read) numbers every op
// and gives every range as a fresh one does, also where in-place reuse erased a block's first op.
// RUN: mplan-opt %S/../Transforms/inplace-live-ranges.mlir --mplan-capture-buffers --test-mplan-rewrites-keep-liveness -o /dev/null
// Capture on the same analysis first: branch results it hoists are roots
// announced after the numbering, still listed in program order.
// RUN: mplan-opt %S/../Transforms/capture-buffers.mlir --split-input-file --test-mplan-rewrites-keep-liveness=capture=true -o /dev/null
// RUN: mplan-opt %S/../Transforms/elide-copies.mlir --split-input-file --test-mplan-rewrites-keep-liveness=capture=true -o /dev/null
// Capture and view folding on the same analysis before them, as mplan-plan runs them: the
// numbering stays exact up to the erased ops (an op inserted to replace another takes its index,
// an erased use at the end of a range has the range recomputed), and renumbering only closes the
// gaps; a change the steps do not announce would show here.
// RUN: mplan-opt %S/../Transforms/capture-buffers.mlir --split-input-file --test-mplan-rewrites-keep-liveness="capture=true fold=true" -o /dev/null
// RUN: mplan-opt %S/../Transforms/fold-views.mlir --split-input-file --test-mplan-rewrites-keep-liveness="capture=true fold=true" -o /dev/null
// RUN: mplan-opt %S/../Transforms/elide-copies.mlir --split-input-file --test-mplan-rewrites-keep-liveness="capture=true fold=true" -o /dev/null
// RUN: mplan-opt %S/../Transforms/inplace-live-ranges.mlir --test-mplan-rewrites-keep-liveness="capture=true fold=true" -o /dev/null
// RUN: mlir-opt %S/../../models/resnet_block.mlir --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   | mplan-opt --mplan-mark-calls --test-mplan-rewrites-keep-liveness="capture=true fold=true" -o /dev/null
// RUN: mlir-opt %S/../../models/decoder_step.mlir --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   | mplan-opt --mplan-mark-calls --test-mplan-rewrites-keep-liveness="capture=true fold=true" -o /dev/null
// RUN: mplan-opt %S/../Transforms/hidden-accesses.mlir --split-input-file --mplan-capture-buffers --mplan-fold-views --test-mplan-rewrites-keep-liveness -o /dev/null
// RUN: mlir-opt %S/../../models/pad_concat_cnn.mlir --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   | mplan-opt --mplan-mark-calls --mplan-capture-buffers --mplan-fold-views --test-mplan-rewrites-keep-liveness -o /dev/null
// RUN: mlir-opt %S/../../models/inception.mlir --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   | mplan-opt --mplan-mark-calls --mplan-capture-buffers --mplan-fold-views --test-mplan-rewrites-keep-liveness -o /dev/null
