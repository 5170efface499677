/**
 * The example definition `wfsync init` puts in an empty workflows directory: two channels, a call to action and a
 * conditional, with every trigger variable declared as the service derives them, so `wfsync validate` passes with
 * no warning and `wfsync sync` creates it on the local target. Pure.
 */
export const EXAMPLE_IDENTIFIER = 'welcome';
export const EXAMPLE_FILE_NAME = `${EXAMPLE_IDENTIFIER}.yaml`;

/** `modeline`: the first line (decideModeline's), or none. */
export function buildExampleWorkflow(modeline: string | undefined): string {
  return `${modeline === undefined ? '' : `${modeline}\n`}# An example written by \`wfsync init\`. Try \`wfsync validate\`, then \`wfsync sync\` (the local target: an embedded
# copy of the service, no account needed). Edit it or delete it before syncing to a real target.
# New definitions: \`wfsync new "invoice paid" --channel email\`.
name: welcome
description: Greets a new user in the app and by email.
tags: [onboarding]
active: true
steps:
  - name: welcome notice
    template:
      type: in_app
      content: Welcome, {{firstName}}! Your workspace {{workspaceName}} is ready.
      cta:
        type: redirect
        data:
          url: /workspaces/{{workspaceId}}
  - name: welcome email
    template:
      type: email
      contentType: customHtml
      # The service does not read a customHtml email's subject for variables: keep it plain, or also use its
      # variables in the content.
      subject: Welcome aboard
      content: |
        <p>Hi {{firstName}},</p>
        <p>Your workspace <strong>{{workspaceName}}</strong> is ready.</p>
        {{#if invitedByTeam}}<p>Your team is already there: say hello!</p>{{/if}}
# The trigger the service will derive from the name and the templates: applications call the workflow by its
# identifier with these payload variables. \`wfsync validate\` checks both.
triggers:
  - type: event
    identifier: welcome
    variables:
      - { name: firstName, type: String }
      - { name: workspaceName, type: String }
      - { name: workspaceId, type: String }
      - { name: invitedByTeam, type: Boolean }
    subscriberVariables:
      - name: email
`;
}
