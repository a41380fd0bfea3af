// bobina's public API: compile conteudo for a printer, or run the stages one by one.
export { compile, listing, type CompileOptions, type CompileResult } from './compile.js';
export { lower, emit, type LowerOptions, type EmitResult } from './stages.js';
export type { EmitOptions } from './emit/index.js';
export {
  parse,
  escape,
  TAGS,
  PARTNER_TAGS,
  type ParseOptions,
  type ParseResult,
  type TagSet,
  type Document,
  type Node,
  type NodeType,
  type TextNode,
  type CommandNode,
  type QrCodeNode,
  type QrEcc,
  type TextSizeNode,
  type BarcodeNode,
  type BarcodeSymbology,
  type BarcodeTextPosition,
  type ImageNode,
  type Dither,
  type RowNode,
  type CellNode,
  type CellAlign,
  type RuleNode,
  type CommandName,
} from './parse/index.js';
export {
  listProfiles,
  loadProfile,
  createProfile,
  ProfileError,
  ProfileSchema,
  type ProfileJsonSchema,
  type Profile,
  type ProfileInput,
  type ProfileData,
  type PrinterRef,
  type Capability,
  type Geometry,
  type CommandKey,
  COMMANDS,
  COMMAND_KEYS,
} from './profiles/index.js';
export { receipt, ReceiptBuilder, type CellSpec, type BarcodeOptions, type QrCodeOptions, type ImageOptions } from './builder/receipt.js';
export { profileSources, type Sources } from './profiles/sources.js';
export { profileSelftest, type SelfTestData } from './profiles/selftests.js';
export { DEFAULT_LIMITS, type CompileLimits } from './limits.js';
export { DIAGNOSTIC_CODES, hasErrors, type Diagnostic, type DiagnosticCode, type Severity, type Span, type Position } from './diagnostics.js';
export { mnemonic, type EmitRecord, type RecordOp } from './emit/index.js';
export { formatListing, type ListingOptions } from './inspect/listing.js';
export { disassemble, formatDisassembly, renderSvg, renderPng, renderPage, selfTest, svgParts, type SvgParts, type Mark, type Instruction, type Effect, type DisassembleOptions, type RenderOptions, type Page, type SelfTestResult } from './inspect/index.js';
export type { Op, OpName, Align, Bitmap, Ecc, HriPosition, TextStyle } from './lower/index.js';
export type { Symbology } from './lower/barcode/symbol.js';
export type { ImageSources } from './lower/image.js';
export { verifyWebhook, webhookSignature, WebhookVerificationError, type WebhookHeaders, type VerifyWebhookOptions } from './webhooks/verify.js';
