{{/*
Object names start with the release name, so two releases (in their own namespaces) do not
collide on cluster-scoped RBAC; release "landlord" gives config/default's names. The Lease names
are the components' own (landlord-operator, landlord-sync, landlord-purger) whatever the release.
*/}}
{{- define "landlord.name" -}}
{{ .root.Release.Name }}-{{ .component }}
{{- end }}

{{- define "landlord.labels" -}}
app.kubernetes.io/component: {{ .component }}
app.kubernetes.io/name: landlord
{{- end }}

{{/*
The ConfigMap's name carries a hash of its content, as kustomize's configMapGenerator does, so a
changed setting rolls the pods. Values are strings: ConfigMap data is.
*/}}
{{- define "landlord.settings" -}}
{{- $data := dict }}
{{- range $key, $value := (index .root.Values .component).settings }}
{{- $_ := set $data $key (toString $value) }}
{{- end }}
{{- toJson $data }}
{{- end }}

{{- define "landlord.configName" -}}
{{- $data := include "landlord.settings" . }}
{{- include "landlord.name" . }}-config-{{ $data | sha256sum | trunc 10 }}
{{- end }}

{{/*
The components this release runs, as a JSON list: operator and sync always, the purger (the one
component that deletes data) only when purger.enabled.
*/}}
{{- define "landlord.components" -}}
{{- $components := list "operator" "sync" }}
{{- if .Values.purger.enabled }}
{{- $components = append $components "purger" }}
{{- end }}
{{- toJson $components }}
{{- end }}

{{- define "landlord.subject" -}}
- kind: ServiceAccount
  name: {{ include "landlord.name" . }}
  namespace: {{ .root.Values.namespace }}
{{- end }}
