/**
 * The visitors of a rule that judges import sources: every import, re-export and import() hands its source to
 * `reasonOf(source, typeOnly)`, and a reason it returns is reported on the source.
 */
export function importVisitors(context, reasonOf) {
  const check = (node, typeOnly) => {
    const source = node.source?.value;
    if (typeof source !== 'string') return;
    const reason = reasonOf(source, typeOnly);
    if (reason !== null) context.report({ node: node.source, messageId: 'violation', data: { reason } });
  };
  return {
    ImportDeclaration: (node) => check(node, node.importKind === 'type'),
    ExportNamedDeclaration: (node) => check(node, node.exportKind === 'type'),
    ExportAllDeclaration: (node) => check(node, node.exportKind === 'type'),
    ImportExpression: (node) => check(node, false),
  };
}
