import { englishIn, toPortuguese } from "../harness/console-i18n";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { newDecisionXml } from "../../console/src/pages/modeler/decision-template";
import { browserOn, describeInBrowser, SCREENSHOTS } from "../harness/browser";
import { type ConsolePage, signedInPage } from "../harness/console-page";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn } from "../harness/process";
import { SA_EMAIL, SA_PASSWORD, startTestServer, type TestServer } from "../harness/server";

// Issue 30: the administration (SA) and modeler areas in Portuguese, bpmn.io's own palette, context pad, properties
// panel and dmn-js included. Each page is visited after the header's switch, its Portuguese checked and none of its
// English labels left in <main>.

const FLOW = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC"
  targetNamespace="t">
  <process id="intake" name="Intake" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="check"/>
    <userTask id="check" name="Check" camunda:candidateGroups="reviewers"/>
    <sequenceFlow id="f2" sourceRef="check" targetRef="e"/><endEvent id="e"/>
  </process>
  <bpmndi:BPMNDiagram id="d"><bpmndi:BPMNPlane id="p" bpmnElement="intake">
    <bpmndi:BPMNShape id="s_di" bpmnElement="s"><dc:Bounds x="100" y="100" width="36" height="36"/></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="check_di" bpmnElement="check"><dc:Bounds x="200" y="78" width="100" height="80"/></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="e_di" bpmnElement="e"><dc:Bounds x="360" y="100" width="36" height="36"/></bpmndi:BPMNShape>
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</definitions>`;

let s: TestServer;
let web: Awaited<ReturnType<typeof browserOn>>;
let tenant: { id: string; slug: string };
let modeler: Awaited<ReturnType<typeof userInTenant>>;

/** Opens `hash`, waits for `text` (Portuguese), saves the screenshot and returns <main>'s text. */
async function visit(cp: ConsolePage, hash: string, text: string | RegExp, name: string): Promise<string> {
  await cp.page.goto(`${web.url}/#/${hash}`);
  await cp.page.locator("main").getByText(text).first().waitFor();
  await cp.page.screenshot({ path: join(SCREENSHOTS, "..", `i18n-admin-${name}.png`), fullPage: true });
  return cp.page.locator("main").innerText();
}

/** The English labels of the page that must not be left in Portuguese. */
const noEnglish = (text: string, english: string[]) => expect(englishIn(text, english)).toEqual([]);

describeInBrowser("the administration and modeler areas in Portuguese (headless Chromium)", () => {
  beforeAll(async () => {
    s = await startTestServer();
    const sa = await saToken(s);
    tenant = await createTenant(s, "i18n-adm", sa);
    modeler = await userInTenant(s, tenant, "MODELER", sa);
    await deployBpmn(s, modeler.token, FLOW, "intake.bpmn");
    const asSa = (path: string, json: unknown) =>
      s.req("POST", `/api${path}`, { token: sa, json }).then((r) => expect(r.status).toBeLessThan(300));
    await asSa("/admin/process-templates", { key: "intake", name: "Intake template", xml: FLOW, enabled: true });
    await asSa("/admin/dmn-templates", {
      key: "limits",
      name: "Limits",
      description: null,
      xml: newDecisionXml("limits", "Limits"),
    });
    const fd = new FormData();
    fd.append("file", new File([newDecisionXml("approval", "Approval")], "approval.dmn", { type: "application/xml" }));
    expect((await s.req("POST", "/api/a/decisions", { token: modeler.token, body: fd })).status).toBe(201);
    const form = await s.req("POST", "/api/a/definitions/intake/forms", {
      token: modeler.token,
      json: {
        key: "check-form",
        name: "Check form",
        schema: { fields: [{ type: "text", key: "note", label: "Note" }] },
      },
    });
    expect(form.status).toBe(201);
    const role = await s.req("POST", "/api/a/process-roles", {
      token: modeler.token,
      json: { processKey: "intake", key: "reviewers", name: "Reviewers" },
    });
    expect(role.status).toBe(201);
    web = await browserOn(s);
  });
  afterAll(() => web?.close());

  test("an SA reads tenants, members, users, SSO, AI quotas and the templates in Portuguese", async () => {
    const cp = await signedInPage(web.browser, web.url, { email: SA_EMAIL, password: SA_PASSWORD }, "Choose a company");
    await toPortuguese(cp.page);
    let text = await visit(cp, "admin/tenants", "Nova empresa", "tenants");
    expect(text).toContain("Todas as empresas");
    expect(text).toContain("Ativa");
    expect(await cp.page.getByRole("button", { name: `Suspender ${tenant.slug}` }).count()).toBe(1);
    noEnglish(text, ["New tenant", "All tenants", "Suspend", "Members", "ACTIVE", "Actions"]);

    text = await visit(cp, `admin/tenants/${tenant.id}/members`, "Adicionar um membro", "members");
    expect(text).toContain("Membros e papéis");
    expect(text).toContain("Papéis de processo da empresa");
    expect(text).toContain("Reviewers");
    noEnglish(text, [
      "Add a member",
      "Members and roles",
      "Processes of the company",
      "Held by",
      "Published",
      "Remove",
    ]);

    text = await visit(cp, "admin/users", "Novo usuário", "users");
    expect(text).toContain("Senha inicial");
    expect(text).toContain("Papel global");
    noEnglish(text, [
      "New user",
      "First name",
      "Initial password",
      "Create user",
      "Search users",
      "Deactivate",
      "Global role",
    ]);

    text = await visit(cp, "admin/sso", "Conexões SSO", "sso");
    expect(text).toContain("Nova conexão");
    expect(text).toContain("Segredo do cliente");
    expect(await cp.page.getByRole("navigation", { name: "Plataforma" }).getByRole("link").allInnerTexts()).toEqual([
      "Conexões SSO",
      "Cotas e uso de IA",
      "Modelos de processo",
      "Modelos DMN",
    ]);
    noEnglish(text, ["New connection", "Issuer URL", "Client secret", "Create connection", "No connections yet"]);

    text = await visit(cp, "admin/ai-quotas", "Cotas e uso de IA", "ai-quotas");
    expect(text).toContain("Cota mensal de IA por empresa");
    expect(text).toContain("Limites pessoais de IA");
    await cp.page.getByRole("button", { name: `Uso de ${tenant.slug}` }).click();
    await cp.page.getByText("Nenhuma chamada de IA neste mês.").waitFor();
    text = await cp.page.locator("main").innerText();
    noEnglish(text, ["Companies", "Used this month", "People", "Person", "details", "No AI calls this month.", "Save"]);

    text = await visit(cp, "admin/templates", "Modelos de processo globais", "process-templates");
    expect(text).toContain("Intake template");
    expect(text).toContain("Nova versão");
    noEnglish(text, ["New template", "Create template", "New version", "Subscribers", "New companies", "Delete"]);

    text = await visit(cp, "admin/dmn-templates", "Modelos DMN globais", "dmn-templates");
    expect(text).toContain("Limits");
    expect(text).toContain("Criar modelo DMN");
    noEnglish(text, ["New DMN template", "Create DMN template", "Change", "Updated", "Description"]);
    expect(cp.problems).toEqual([]);
    await cp.page.close();
  });

  test("a Modeler works in Portuguese: home, a definition, roles, a form, the BPMN editor and the decision editor", async () => {
    const cp = await signedInPage(web.browser, web.url, modeler, "Tasks");
    await cp.page.setViewportSize({ width: 1400, height: 1000 });
    await toPortuguese(cp.page);
    let text = await visit(cp, "modeler", "Desenhar um novo diagrama BPMN", "modeler-home");
    expect(text).toContain("Implantar um arquivo");
    expect(text).toContain("Tabelas de decisão");
    noEnglish(text, [
      "Deploy a file",
      "Draw a new BPMN diagram",
      "Processes and cases",
      "Versions and forms",
      "Try it",
    ]);

    text = await visit(cp, "modeler/definitions/intake", "Editar o diagrama da versão mais recente", "definition");
    expect(text).toContain("Formulários deste processo");
    expect(text).toContain("Publicar");
    noEnglish(text, ["Versions", "Deployed", "Forms of this process", "New form", "published", "Edit"]);

    text = await visit(cp, "modeler/roles", "Novo papel", "process-roles");
    expect(text).toContain("Usado por");
    expect(text).toContain("intake: check");
    noEnglish(text, ["New role", "Create role", "Used by", "Delete role", "Members"]);

    text = await visit(cp, "modeler/forms/intake/check-form", "Formulário Check form", "form-editor");
    expect(text).toContain("Pré-visualização");
    expect(text).toContain("Campo 1");
    noEnglish(text, ["Fields", "Form key", "Form name", "Edit as JSON", "Add a field", "Preview", "Visible if"]);

    // bpmn-js in Portuguese: the palette's tooltips, the context pad, the properties panel's groups and fields.
    await visit(cp, "modeler/edit/intake", "Editar intake", "bpmn-editor");
    const palette = cp.page.locator(".djs-palette");
    await palette.waitFor();
    expect(await palette.locator('[data-action="create.task"]').getAttribute("aria-label")).toBe("Criar tarefa");
    expect(await palette.locator('[data-action="create.exclusive-gateway"]').getAttribute("aria-label")).toBe(
      "Criar gateway",
    );
    expect(await palette.locator('[data-action="hand-tool"]').getAttribute("aria-label")).toBe(
      "Ativar a ferramenta mão",
    );
    await cp.page.locator('.djs-element[data-element-id="check"]').click();
    expect(await cp.page.locator('.djs-context-pad [data-action="append.append-task"]').getAttribute("title")).toBe(
      "Anexar tarefa",
    );
    await cp.page.locator(".bio-properties-panel-header-type", { hasText: "Tarefa de usuário" }).waitFor();
    const groups = cp.page.locator(".bio-properties-panel-group-header-title");
    await groups.filter({ hasText: "Atribuição de usuário" }).waitFor();
    const titles = await groups.allInnerTexts();
    expect(titles).toEqual([
      "Geral",
      "Este serviço",
      "Documentação",
      "Atribuição de usuário",
      "Formulários",
      "Ouvintes de tarefa",
      "Continuações assíncronas",
      "Entradas",
      "Saídas",
      "Ouvintes de execução",
      "Propriedades de extensão",
    ]);
    noEnglish(titles.join("\n"), ["General", "User assignment", "Asynchronous continuations", "Documentation"]);
    await cp.page
      .locator('[data-group-id="group-CamundaPlatform__UserAssignment"] .bio-properties-panel-group-header')
      .click();
    await cp.page.getByText("Grupos candidatos", { exact: true }).waitFor();
    expect(await cp.page.locator(".properties").innerText()).toContain("Responsável");
    await cp.page.locator('.djs-context-pad [data-action="replace"]').click();
    await cp.page.locator(".djs-popup").getByText("Tarefa de serviço").waitFor();
    await cp.page.screenshot({ path: join(SCREENSHOTS, "..", "i18n-admin-bpmn-replace-menu.png"), fullPage: true });
    await cp.page.keyboard.press("Escape");
    text = await cp.page.locator("main").innerText();
    noEnglish(text, ["Drag elements from the palette", "Deploy", "General", "User assignment"]);

    // dmn-js in Portuguese: the decision table's head and hit policy.
    await visit(cp, "modeler/decisions/approval/edit", "Editar a decisão approval", "decision-editor");
    const table = cp.page.locator(".dmn-decision-table-container");
    await table.waitFor();
    await table.getByText("Política de acerto:").waitFor();
    const tableText = await table.innerText();
    expect(tableText).toContain("Quando");
    expect(tableText).toContain("Então");
    text = await cp.page.locator("main").innerText();
    expect(text).toContain("Tabela: Approval");
    noEnglish(text, ["Hit policy", "When", "Then", "Parts of the file", "Deploy", "Table"]);
    await cp.page.screenshot({ path: join(SCREENSHOTS, "..", "i18n-admin-decision-editor.png"), fullPage: true });

    text = await visit(cp, "modeler/decisions/approval", "Editar a tabela", "decision-try");
    expect(text).toContain("Avaliar");
    noEnglish(text, ["Edit the table", "Evaluate", "Further variables"]);
    expect(cp.problems).toEqual([]);
    await cp.page.close();
  });
});
