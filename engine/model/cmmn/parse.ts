import { doctypeRefusal } from "../doctype";
import { modelSizeRefusal } from "../model-limits";
import { BadRequestError } from "../../errors";
import { checkCondition } from "./conditions";
import { DECISION_RESULT_MAPPINGS, isDecisionResultMapping } from "../../dmn/result-mapping";
import { readCmmnXml, type Moddle } from "./moddle";
import { asCmmn11, CMMN_10_ATTRIBUTES, criteriaRefs } from "./version";
import { attr, extension } from "./attrs";
import { readTaskImplementation } from "./task-implementation";
import type {
  CaseModel,
  CriterionModel,
  ParsedCmmn,
  PlanItemModel,
  PlanItemType,
  RuleModel,
  SentryModel,
} from "./types";

/** Refusal of a CMMN file at deploy: malformed XML, no case, unsupported construct, broken reference. */
export class CmmnDeployError extends BadRequestError {}

const TYPES: Record<string, PlanItemType> = {
  "cmmn:Stage": "stage",
  "cmmn:HumanTask": "humanTask",
  "cmmn:Task": "task",
  "cmmn:ProcessTask": "processTask",
  "cmmn:CaseTask": "caseTask",
  "cmmn:DecisionTask": "decisionTask",
  "cmmn:Milestone": "milestone",
  "cmmn:UserEventListener": "userEventListener",
  "cmmn:TimerEventListener": "timerEventListener",
  "cmmn:EventListener": "userEventListener",
};
const refId = (r: Moddle): string | undefined =>
  r && typeof r === "object" ? r.id : typeof r === "string" && r ? r : undefined;

class CaseReader {
  private readonly planItems: Record<string, PlanItemModel> = {};
  private readonly sentries: Record<string, SentryModel> = {};
  private readonly usedStages = new Set<string>();
  constructor(
    private readonly c: Moddle,
    private readonly warnings: string[],
    private readonly processes: Moddle[] = [],
  ) {}

  read(): CaseModel {
    const pm = this.c.casePlanModel;
    if (!pm) throw new CmmnDeployError(`Case '${this.c.id}' has no casePlanModel`);
    const children = this.readStage(pm, null);
    const exitCriteria = this.criteria(pm.exitCriteria, `case plan model '${pm.id}'`, criteriaRefs(pm, "exit"));
    const model: CaseModel = {
      id: this.c.id,
      name: this.c.name || pm.name || this.c.id,
      planModelId: pm.id,
      startFormKey: attr(pm, "formKey") ?? null,
      initiatorVariableName: attr(this.c, "initiatorVariableName") ?? null,
      autoComplete: pm.autoComplete === true,
      children,
      exitCriteria,
      planItems: this.planItems,
      sentries: this.sentries,
      referencedBy: {},
    };
    for (const pi of Object.values(this.planItems)) {
      for (const cr of [...pi.entryCriteria, ...pi.exitCriteria]) this.checkSentry(cr, pi.id, model);
      if (pi.timer?.startTrigger && !this.planItems[pi.timer.startTrigger.sourceRef])
        throw new CmmnDeployError(
          `Timer listener '${pi.id}': its start trigger names unknown plan item '${pi.timer.startTrigger.sourceRef}'`,
        );
    }
    for (const cr of exitCriteria) this.checkSentry(cr, pm.id, model);
    return model;
  }

  private checkSentry(cr: CriterionModel, owner: string, model: CaseModel): void {
    const s = this.sentries[cr.sentryId];
    if (!s) throw new CmmnDeployError(`Criterion '${cr.id}' of '${owner}' refers to unknown sentry '${cr.sentryId}'`);
    for (const op of s.onParts) {
      if (!this.planItems[op.sourceRef])
        throw new CmmnDeployError(`Sentry '${s.id}': on-part '${op.id}' names unknown plan item '${op.sourceRef}'`);
      const list = (model.referencedBy[op.sourceRef] ??= []);
      if (!list.includes(owner)) list.push(owner);
    }
  }

  /** Reads a stage's (or plan fragment's) plan items and sentries; returns the ids of its direct children. */
  private readStage(stage: Moddle, parent: string | null): string[] {
    for (const s of stage.sentries ?? []) this.readSentry(s);
    const children: string[] = [];
    for (const pi of stage.planItems ?? []) {
      const def = pi.definitionRef;
      if (!def || typeof def !== "object")
        throw new CmmnDeployError(`Plan item '${pi.id}' refers to an unknown definition '${refId(def) ?? ""}'`);
      if (def.$type === "cmmn:PlanFragment") {
        // Plan fragments group items in the modeler only: their items belong to the enclosing stage at run time.
        if ((pi.entryCriteria ?? []).length || (pi.exitCriteria ?? []).length)
          this.warnings.push(
            `Plan fragment item '${pi.id}': its criteria are ignored (fragments have no runtime state)`,
          );
        children.push(...this.readStage(def, parent));
        continue;
      }
      children.push(this.readPlanItem(pi, def, parent));
    }
    if ((stage.planningTable?.tableItems ?? []).length)
      this.warnings.push(`Stage '${stage.id}': discretionary items (planning table) are ignored`);
    return children;
  }

  private readPlanItem(pi: Moddle, def: Moddle, parent: string | null): string {
    const type = TYPES[def.$type];
    if (!type)
      throw new CmmnDeployError(
        `Plan item '${pi.id}': ${String(def.$type).replace(/^cmmn:/, "")} '${def.id}' is not supported`,
      );
    if (this.planItems[pi.id]) throw new CmmnDeployError(`Plan item id '${pi.id}' is used twice`);
    const control = pi.itemControl ?? def.defaultControl;
    const item: PlanItemModel = {
      id: pi.id,
      name: pi.name || def.name || pi.id,
      type,
      definitionRef: def.id,
      parent,
      entryCriteria: this.criteria(pi.entryCriteria, `plan item '${pi.id}'`, criteriaRefs(pi, "entry")),
      exitCriteria: this.criteria(pi.exitCriteria, `plan item '${pi.id}'`, criteriaRefs(pi, "exit")),
      isBlocking: def.isBlocking !== false,
    };
    if (control) this.readControl(control, item);
    if (type === "stage") {
      if (this.usedStages.has(def.id))
        throw new CmmnDeployError(`Stage '${def.id}' is used by more than one plan item; give each its own stage`);
      this.usedStages.add(def.id);
      item.autoComplete = def.autoComplete === true;
      this.planItems[pi.id] = item;
      item.children = this.readStage(def, pi.id);
    } else this.planItems[pi.id] = item;
    if (type === "humanTask") {
      item.humanTask = {
        assignee: attr(def, "assignee") ?? def.performerRef?.name,
        candidateUsers: attr(def, "candidateUsers"),
        candidateGroups: attr(def, "candidateGroups"),
        formKey: attr(def, "formKey"),
        dueDate: attr(def, "dueDate"),
        priority: attr(def, "priority"),
      };
    }
    if (type === "processTask") {
      // processRef names a <process> of the file whose externalRef is the BPMN process key (Flowable); else it is the key itself.
      const ref =
        typeof def.processRef === "string"
          ? (this.processes.find((p: Moddle) => p.id === def.processRef) ?? def.processRef)
          : def.processRef;
      item.processRef =
        (ref && typeof ref === "object" ? ref.externalRef || ref.id : ref) || def.processRefExpression?.body;
      if (!item.processRef) throw new CmmnDeployError(`Process task '${def.id}' names no process (processRef)`);
    }
    if (type === "caseTask") {
      item.caseRef = refId(def.caseRef) || def.caseRefExpression?.body;
      // As Camunda: deployed, and it fails when it starts (422), so the rest of the model can be used and fixed.
      if (!item.caseRef)
        this.warnings.push(`Case task '${def.id}' names no case (caseRef): it fails with an error when it starts`);
    }
    if (type === "decisionTask") this.readDecisionTask(def, item);
    const problem = type === "task" ? readTaskImplementation(def, item) : null;
    if (problem) throw new CmmnDeployError(problem);
    if (type === "timerEventListener") {
      const expression = String(def.timerExpression?.body ?? "").trim();
      if (!expression) throw new CmmnDeployError(`Timer event listener '${def.id}' has no timerExpression`);
      const st = def.timerStart;
      const trigger =
        st && st.$type === "cmmn:PlanItemStartTrigger"
          ? { sourceRef: refId(st.sourceRef) ?? "", event: String(st.standardEvent ?? "complete") }
          : undefined;
      if (st && !trigger)
        throw new CmmnDeployError(`Timer event listener '${def.id}': only plan item start triggers are supported`);
      item.timer = { expression, startTrigger: trigger };
    }
    return pi.id;
  }

  /**
   * A decision task names its decision and, optionally, how the result becomes case variables (Camunda's and Flowable's
   * `resultVariable` / `mapDecisionResult`). One without a decision is a modeller's draft: it deploys with a warning and
   * runs as a plain task (a blocking one waits for a trigger), as nothing can be evaluated.
   */
  private readDecisionTask(def: Moddle, item: PlanItemModel): void {
    item.decisionRef = refId(def.decisionRef) || def.decisionRefExpression?.body || attr(def, "decisionRef");
    if (!item.decisionRef) {
      this.warnings.push(
        `Decision task '${def.id}' names no decision (decisionRef): it runs as a plain task, evaluating nothing`,
      );
      item.type = "task";
      return;
    }
    const mapping = attr(def, "mapDecisionResult");
    if (mapping !== undefined && !isDecisionResultMapping(mapping))
      throw new CmmnDeployError(
        `Decision task '${def.id}': mapDecisionResult '${mapping}' is not one of ${DECISION_RESULT_MAPPINGS.join(", ")}`,
      );
    const resultVariable = attr(def, "resultVariable");
    if (mapping && !resultVariable)
      throw new CmmnDeployError(`Decision task '${def.id}': mapDecisionResult '${mapping}' needs a resultVariable`);
    if (resultVariable) item.decisionResult = { variable: resultVariable, mapping: mapping ?? "resultList" };
  }

  private rule(r: Moddle, where: string): RuleModel {
    const body = r.condition?.body;
    if (body === undefined || String(body).trim() === "") return {};
    const lang = r.condition?.language;
    if (lang && /javascript|^js$|groovy|python/i.test(String(lang)))
      throw new CmmnDeployError(`${where}: '${lang}' conditions are not supported (FEEL or \${...} only)`);
    const c = checkCondition(String(body));
    if ("error" in c) throw new CmmnDeployError(`${where}: ${c.error}`);
    return { condition: c.source };
  }

  private readControl(ctl: Moddle, item: PlanItemModel): void {
    const where = (k: string) => `Plan item '${item.id}' ${k}`;
    if (ctl.requiredRule) item.required = this.rule(ctl.requiredRule, where("required rule"));
    if (ctl.manualActivationRule)
      item.manualActivation = this.rule(ctl.manualActivationRule, where("manual activation rule"));
    if (ctl.repetitionRule)
      item.repetition = {
        ...this.rule(ctl.repetitionRule, where("repetition rule")),
        counterVariable: attr(ctl.repetitionRule, "counterVariable") ?? "repetitionCounter",
      };
    const neutral = extension(ctl, "completionNeutralRule");
    if (neutral) item.completionNeutral = {};
    const pcr = extension(ctl, "parentCompletionRule");
    if (pcr) item.parentCompletionRule = String(pcr.$attrs?.type ?? pcr.type ?? "default");
  }

  /** 1.1 criterion elements, then the sentries a CMMN 1.0 file names by attribute (`refs`). */
  private criteria(list: Moddle[] | undefined, owner: string, refs: string[] = []): CriterionModel[] {
    const read = (list ?? []).map((c: Moddle, i: number) => {
      const sentryId = refId(c.sentryRef);
      if (!sentryId) throw new CmmnDeployError(`A criterion of ${owner} has no sentry (sentryRef)`);
      return { id: c.id ?? `${sentryId}#${i}`, sentryId };
    });
    return [...read, ...refs.map((sentryId, i) => ({ id: `${sentryId}#ref${i}`, sentryId }))];
  }

  private readSentry(s: Moddle): void {
    const fileParts = (s.onParts ?? []).filter((op: Moddle) => op.$type === "cmmn:CaseFileItemOnPart");
    if (fileParts.length)
      this.warnings.push(
        `Sentry '${s.id}': case file item on-parts are not supported (there is no case file); the sentry waits for an event that never comes`,
      );
    const planParts = (s.onParts ?? []).filter((op: Moddle) => op.$type !== "cmmn:CaseFileItemOnPart");
    const onParts = planParts.map((op: Moddle, i: number) => {
      const sourceRef = refId(op.sourceRef);
      if (!sourceRef) throw new CmmnDeployError(`Sentry '${s.id}': an on-part names no plan item (sourceRef)`);
      return { id: op.id ?? `${s.id}#${i}`, sourceRef, event: String(op.standardEvent ?? "complete") };
    });
    const sentry: SentryModel = {
      id: s.id,
      onParts,
      triggerMode: attr(s, "triggerMode") === "onEvent" ? "onEvent" : "default",
    };
    if (s.ifPart) {
      const r = this.rule(s.ifPart, `Sentry '${s.id}' if-part`);
      if (r.condition) sentry.condition = r.condition;
    }
    if (fileParts.length) sentry.waitsForCaseFile = true;
    else if (!onParts.length && !sentry.condition)
      this.warnings.push(`Sentry '${s.id}' has neither on-parts nor an if-part: it is satisfied at once`);
    this.sentries[s.id] = sentry;
  }
}

/** Reads a CMMN 1.1 file into plain case models; refuses what the engine cannot run, naming the problem. */
export async function parseCmmn(xml: string): Promise<ParsedCmmn> {
  // Refused before any parser runs: nothing, too big (size and element count), or a DOCTYPE.
  const refused = !xml?.trim() ? "The file is empty" : (modelSizeRefusal(xml, "CMMN") ?? doctypeRefusal(xml));
  if (refused) throw new CmmnDeployError(refused);
  const upgrade = asCmmn11(xml);
  let read: Awaited<ReturnType<typeof readCmmnXml>>;
  try {
    read = await readCmmnXml(upgrade.xml);
  } catch (e) {
    throw new CmmnDeployError(`The file is not valid CMMN XML: ${(e as Error).message.split("\n")[0]}`);
  }
  const fatal = read.warnings.find((w) => /unparsable content|duplicate ID|unexpected|missing/i.test(w));
  if (fatal) throw new CmmnDeployError(`The file is not valid CMMN: ${fatal.replace(/\s*\n\s*/g, "; ")}`);
  const defs = read.definitions;
  if (defs?.$type !== "cmmn:Definitions")
    throw new CmmnDeployError("The file is not a CMMN document (no cmmn definitions root)");
  // The 1.0 criteria attributes are read (criteriaRefs), not unknown: no warning for them.
  const known = new RegExp(`unknown attribute <(${CMMN_10_ATTRIBUTES.join("|")})>`);
  const warnings = read.warnings
    .filter((w) => !(upgrade.upgraded && known.test(w)))
    .map((w) => w.replace(/\s*\n\s*/g, "; "));
  if (upgrade.upgraded)
    warnings.push("CMMN 1.0 file: read as CMMN 1.1 (criteria named by entryCriteriaRefs/exitCriteriaRefs)");
  const cases = (defs.cases ?? []).map((c: Moddle) => new CaseReader(c, warnings, defs.processes ?? []).read());
  if (!cases.length) throw new CmmnDeployError("No case found in the file");
  return { cases, warnings };
}
