// client-node's KubeConfig builds an OIDC, an Azure and a GCP authenticator for every kubeconfig,
// and their modules load openid-client, oauth4webapi, jose and jsonpath-plus (~0.6 MiB of heap)
// for users of those auth-provider entries only: a pod's ServiceAccount token and a client
// certificate use none of them. These stand-ins answer isAuthProvider by the provider's name, as
// the real ones do, and load the real authenticator on the first applyAuthentication. See hooks.ts.
import type { User } from '@kubernetes/client-node';
import type { Authenticator } from '@kubernetes/client-node/dist/auth.js';

type AuthModule = Record<string, new () => Authenticator>;

/** An authenticator for one auth-provider name whose real class loads on first use. */
function lazyAuthenticator(provider: string, file: string, className: string): new () => Authenticator {
  return class implements Authenticator {
    private real: Promise<Authenticator> | undefined;

    isAuthProvider(user: User | undefined): boolean {
      // client-node types authProvider as any: a kubeconfig's free-form auth-provider entry.
      const entry = user?.authProvider as { name?: unknown } | undefined;
      return entry?.name === provider;
    }

    async applyAuthentication(
      user: User,
      opts: Parameters<Authenticator['applyAuthentication']>[1],
    ): Promise<void> {
      this.real ??= import(`@kubernetes/client-node/dist/${file}`).then(
        (module: AuthModule) => new module[className]!(),
      );
      await (await this.real).applyAuthentication(user, opts);
    }
  };
}

export const OpenIDConnectAuth = lazyAuthenticator('oidc', 'oidc_auth.js', 'OpenIDConnectAuth');
export const AzureAuth = lazyAuthenticator('azure', 'azure_auth.js', 'AzureAuth');
export const GoogleCloudPlatformAuth = lazyAuthenticator('gcp', 'gcp_auth.js', 'GoogleCloudPlatformAuth');
