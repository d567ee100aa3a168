// The TenantClasses `landlord validate --classes` judges a row under: read from a file as an admin
// has them (YAML or JSON, one class, several documents, or a List as `kubectl get tc -o yaml`
// prints), so a row is checked against the platform's classes, not only the built-in one.
import { loadAll } from 'js-yaml';
import { CLASS_API_VERSION, CLASS_API_VERSIONS, CLASS_KIND, type TenantClass } from '../api/tenantclass.js';

export type ClassFile = { ok: true; classes: TenantClass[] } | { ok: false; problem: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The classes in a file's text, or the first problem found, naming the document (1-based). */
export function parseClassFile(text: string): ClassFile {
  let documents: unknown[];
  try {
    documents = loadAll(text);
  } catch (err) {
    return { ok: false, problem: `not YAML or JSON: ${(err as Error).message.split('\n')[0]}` };
  }
  const classes: TenantClass[] = [];
  for (const [i, document] of documents.entries()) {
    if (document === null || document === undefined) continue;
    const items = isObject(document) && Array.isArray(document.items) ? document.items : [document];
    for (const item of items) {
      const problem = classProblem(item);
      if (problem !== undefined) return { ok: false, problem: `document ${i + 1}: ${problem}` };
      // Either served version has the same fields (ADR 0011): read as the current one.
      classes.push({ ...(item as TenantClass), apiVersion: CLASS_API_VERSION });
    }
  }
  return { ok: true, classes };
}

/** Why an object is not a TenantClass the operator could read, or undefined when it is one. */
function classProblem(item: unknown): string | undefined {
  if (!isObject(item)) return 'expected a TenantClass object';
  const { apiVersion, kind, metadata, spec } = item;
  if (kind !== CLASS_KIND || !(CLASS_API_VERSIONS as readonly unknown[]).includes(apiVersion)) {
    return `expected apiVersion ${CLASS_API_VERSIONS.join(' or ')}, kind ${CLASS_KIND}; found ${String(apiVersion)} ${String(kind)}`;
  }
  if (!isObject(metadata) || typeof metadata.name !== 'string' || metadata.name === '') {
    return 'a TenantClass needs metadata.name';
  }
  if (spec !== undefined && !isObject(spec)) return `TenantClass ${metadata.name}: spec must be an object`;
  return undefined;
}
