import type { FormRow, VersionRow } from "./store";

/** A version as listed: number, UUID, who saved it and when, whether tasks now lock it. */
export function versionView(v: Omit<VersionRow, "schema">, publishedVersionId: string | null) {
  return {
    num: v.num,
    versionId: v.id,
    createdBy: v.createdBy,
    createdAt: v.createdAt,
    published: v.id === publishedVersionId,
  };
}

export function versionWithSchema(v: VersionRow, publishedVersionId: string | null) {
  return { ...versionView(v, publishedVersionId), schema: JSON.parse(v.schema) as unknown };
}

/** A row of GET .../forms. */
export function formSummary(f: FormRow) {
  return {
    id: f.id,
    processKey: f.processKey,
    key: f.key,
    name: f.name,
    createdBy: f.createdBy,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    latestVersionId: f.latestVersionId,
    latestVersionNum: f.latestVersionNum,
    publishedVersionId: f.publishedVersionId,
    publishedVersionNum: f.publishedVersionNum,
  };
}

/** Detail: the summary plus the latest version (its schema repeated at top level) and the published one. */
export function formDetail(f: FormRow, latest: VersionRow, published: VersionRow | null) {
  const latestVersion = versionWithSchema(latest, f.publishedVersionId);
  return {
    ...formSummary(f),
    schema: latestVersion.schema,
    latestVersion,
    publishedVersion: published ? versionWithSchema(published, f.publishedVersionId) : null,
  };
}
